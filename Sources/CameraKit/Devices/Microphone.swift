import GStreamer
import Synchronization

/// A microphone's sound, as 48 kHz 16-bit stereo buffers handed to a handler on its streaming
/// thread, stamped with the running time of its own pipeline on the system's monotonic clock.
///
/// The microphone runs in a pipeline of its own, so the movie it records into is not a live
/// pipeline: its muxer interleaves sound and frames by their times and never waits on a clock.
final class Microphone: Sendable {
    /// The format of the buffers handed on.
    static let caps = "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2,channel-mask=(bitmask)0x3"

    private let pipeline: Pipeline
    private let news = News()
    private let watch: Task<Void, Never>

    /// What the streaming thread and the bus's watch tell: the first sound, the latest, the first error.
    private final class News: Sendable {
        let heard = Atomic<Bool>(false)
        let lastSound = Mutex<ContinuousClock.Instant?>(nil)
        let failure = Mutex<GStreamerError?>(nil)
    }

    /// Opens `audio`'s source and waits for its first sound, at most three seconds.
    ///
    /// - Throws: ``CaptureError`` when no such microphone is here, or it cannot be opened, or it
    ///   gives no sound.
    init(_ audio: MovieAudio, onSound: @escaping @Sendable (Buffer) -> Void) async throws(CaptureError) {
        // A second of sound may wait here while the movie's encoder catches up; the capture never waits.
        // Finding the microphone lists them (pw-dump): on the discovery lane.
        let source = try await DeviceDiscovery.lane.run { () throws(CaptureError) in try audio.sourceDescription(named: "source") }
        let description = "\(source) "
            + "! queue max-size-time=1000000000 max-size-buffers=0 max-size-bytes=0 leaky=downstream "
            + "! audioconvert ! audioresample ! \(Self.caps) ! appsink name=sound sync=false max-buffers=0 drop=false"
        do {
            pipeline = try Pipeline(describing: description)
        } catch {
            throw CaptureError.converting(error, context: "the microphone could not be set up")
        }
        pipeline.useSystemClock()
        if let source = pipeline.element(named: "source"), source.factoryName == "pipewiresrc" {
            // As a PipeWire camera's frames: some undated, others on PipeWire's clock.
            source.staticPad(named: "src")?.dateOnArrival()
        }
        guard let sink = pipeline.element(named: "sound", as: AppSink.self) else {
            throw CaptureError(.pipeline, "the microphone's pipeline has no app sink")
        }
        let news = self.news
        sink.setHandlers(onSample: { sample in
            guard let buffer = sample.buffer else { return }
            news.heard.store(true, ordering: .releasing)
            news.lastSound.withLock { $0 = .now }
            onSound(buffer)
        })
        let messages = pipeline.messages(bufferingNewest: 16)
        watch = Task {
            for await message in messages {
                guard case .error(let report) = message else { continue }
                news.failure.withLock { $0 = $0 ?? GStreamerError(report) }
                return
            }
        }
        do {
            try await pipeline.beginStateChange(to: .playing)
            try await firstSound()
        } catch let error as CaptureError {
            await stop()
            throw error
        } catch {
            await stop()
            throw CaptureError.converting(error, context: "the microphone could not be opened")
        }
    }

    private func firstSound() async throws(CaptureError) {
        let deadline = ContinuousClock.now + .seconds(3)
        while !news.heard.load(ordering: .acquiring) {
            if let error = failed {
                throw CaptureError(.deviceNotFound, "the microphone could not be opened (\(error.report?.text ?? error.message))",
                                   remedy: .recordWithoutSoundOrAnotherMicrophone, debugInfo: error.debugInfo)
            }
            guard ContinuousClock.now < deadline else {
                throw CaptureError(.timeout, "the microphone gave no sound in 3 seconds", remedy: .recordWithoutSoundOrAnotherMicrophone)
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// The microphone's running time: the clock its buffers are stamped on.
    var runningTime: ClockTime? { pipeline.runningTime }

    /// How long the microphone has sent nothing (zero before its first sound).
    var silence: Duration {
        news.lastSound.withLock { $0.map { .now - $0 } } ?? .zero
    }

    /// The error the microphone's pipeline posted, once it did (the microphone went away).
    var failed: GStreamerError? { news.failure.withLock { $0 } }

    /// Closes the microphone; no sound is handed on after this returns.
    func stop() async {
        try? await pipeline.stop()
        watch.cancel()
    }
}
