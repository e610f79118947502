import GStreamer
import Synchronization

/// The pipeline one movie is written by: the session's frames pushed in, H.264 from the
/// highest-ranked encoder (x264 tuned for a live camera: no frame held back for look-ahead, so
/// memory stays small and a stop is final at once), muxed into fragmented MP4 with a fragment each
/// second, so a process killed while recording leaves a file that plays up to its last whole fragment.
final class MovieWriter: Sendable {
    private let pipeline: Pipeline
    private let source: AppSource
    /// The first error the pipeline posted (the disk full, the file gone), once there is one.
    private let failure = FirstFailure()
    /// Whether ``finish()`` has begun: frames pushed after it are let go, not failures.
    private let isEnding = Atomic<Bool>(false)
    private let watch: Task<Void, Never>

    /// The H.264 encoder's element: the highest-ranked one GStreamer offers, which is x264 unless a
    /// board's plugins rank their hardware encoder above it. x264 is tuned for a live camera and
    /// given the bit rate; another encoder runs with its own defaults, as their settings differ.
    let encoder: String

    static var encoder: String { GStreamerRuntime.videoEncoders(producing: "video/x-h264").first ?? "x264enc" }

    /// The length of a fragment: what a kill can lose at most.
    static let fragmentMilliseconds = 1000

    /// Starts writing a movie of `width`x`height` I420 frames at `frameRate` to `path`.
    init(path: String, width: Int, height: Int, frameRate: Fraction, kilobitsPerSecond: Int) async throws(CaptureError) {
        let keyInterval = max(1, Int((frameRate.doubleValue * 2).rounded()))
        // At most two frames wait for the encoder; a third waits in the session's movie branch,
        // whose queue lets frames pass (counted as lost) only when the encoder lags for seconds.
        let waiting = width * height * 3 / 2 * 2
        encoder = Self.encoder
        let encoding = encoder == "x264enc"
            ? "x264enc speed-preset=veryfast tune=zerolatency key-int-max=\(keyInterval) bitrate=\(kilobitsPerSecond) ! video/x-h264,profile=high"
            : "\(encoder) ! video/x-h264"
        let description = "appsrc name=input max-bytes=\(waiting) block=true "
            + "! video/x-raw,format=I420,width=\(width),height=\(height),framerate=\(frameRate) "
            + "! \(encoding) ! h264parse ! mp4mux fragment-duration=\(Self.fragmentMilliseconds) "
            + "! filesink location=\"\(Self.quoted(path))\""
        do {
            pipeline = try Pipeline(describing: description)
        } catch {
            throw CaptureError.converting(error, context: "the movie's encoder could not be built")
        }
        guard let source = pipeline.element(named: "input", as: AppSource.self) else {
            throw CaptureError(.pipeline, "the movie's encoder has no app source")
        }
        self.source = source
        let messages = pipeline.messages(bufferingNewest: 64), failure = self.failure
        watch = Task {
            for await message in messages {
                guard case .error(let report) = message else { continue }
                failure.keep(GStreamerError(report))
                return
            }
        }
        do {
            try await pipeline.beginStateChange(to: .playing)
        } catch {
            await stop()
            throw CaptureError.converting(error, context: "the movie's encoder could not start")
        }
    }

    /// A path as a quoted gst-launch property value.
    private static func quoted(_ path: String) -> String {
        path.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }

    /// Hands a frame to the encoder at `time` of the movie; `false` once the writer failed.
    /// Called on the movie branch's streaming thread; waits while two frames wait for the encoder.
    func push(_ buffer: Buffer, at time: ClockTime, duration: ClockTime?) -> Bool {
        guard failure.error == nil, !isEnding.load(ordering: .acquiring) else { return false }
        do {
            try source.push(buffer, at: time, duration: duration)
            return true
        } catch {
            // A frame that meets the stream's end, asked for meanwhile, is simply not in the movie.
            if !isEnding.load(ordering: .acquiring) { failure.keep(error) }
            return false
        }
    }

    /// The first failure, as a capture error, once there is one.
    var failed: CaptureError? {
        failure.error.map { error in
            let sentence = switch (error.report?.domain, error.report?.code) {
            case (.resource?, Message.Report.ResourceCode.noSpaceLeft?):
                "the disk filled while recording; the movie is kept up to its last whole second, and freeing space lets you record again"
            case (.resource?, _): "the movie's file could not be written (\(error.report?.text ?? error.message)); it is kept up to its last whole second"
            default: "the movie's encoder failed (\(error.message)); the movie is kept up to its last whole second"
            }
            return CaptureError(.movieNotWritten, sentence, debugInfo: error.debugInfo)
        }
    }

    /// Ends the movie: the frames pushed are encoded and the file's index written. Returns the
    /// failure that cut it short, if one did.
    func finish() async -> CaptureError? {
        isEnding.store(true, ordering: .releasing)
        if failed == nil {
            try? source.endOfStream()
            do {
                try await pipeline.waitForEndOfStream(timeout: .seconds(20))
            } catch {
                failure.keep(error)
            }
        }
        await stop()
        return failed
    }

    private func stop() async {
        try? await pipeline.stop()
        watch.cancel()
    }
}

/// The first of the errors kept, shared between the bus's watch and the streaming thread.
private final class FirstFailure: Sendable {
    private let first = Mutex<GStreamerError?>(nil)

    var error: GStreamerError? { first.withLock { $0 } }

    func keep(_ error: GStreamerError) {
        first.withLock { $0 = $0 ?? error }
    }
}
