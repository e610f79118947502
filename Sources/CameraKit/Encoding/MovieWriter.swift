import GStreamer
import Synchronization

/// The pipeline one movie is written by: the session's frames pushed in, H.264 from the
/// highest-ranked encoder (x264 tuned for a live camera: no frame held back for look-ahead, so
/// memory stays small and a stop is final at once), muxed into fragmented MP4 with a fragment each
/// second, so a process killed while recording leaves a file that plays up to its last whole fragment.
///
/// With sound, a ``Microphone``'s buffers are put on the movie's timeline by a ``SoundTimeline``
/// and pushed in beside the frames, encoded as AAC into the same file. Neither input is live: the
/// muxer interleaves them by their times.
final class MovieWriter: Sendable {
    private let pipeline: Pipeline
    private let source: AppSource
    /// The sound's input, its microphone and its timeline, when the movie has sound.
    private let soundInput: AppSource?
    private let microphone: Microphone?
    let sound: SoundTimeline?
    /// Ends the sound of a microphone that stops sending without an error, so the frames, which
    /// the muxer would otherwise hold back waiting for sound, go on to the recording's end.
    private let silenceWatch: Task<Void, Never>?
    /// The first error the pipeline or the microphone posted (the disk full, the file gone, the
    /// microphone unplugged), and whether the movie is ending.
    private let status = WriterStatus()
    private let watch: Task<Void, Never>

    /// The H.264 encoder's element: the highest-ranked one GStreamer offers, which is x264 unless a
    /// board's plugins rank their hardware encoder above it. x264 is tuned for a live camera; each
    /// encoder in ``settings(of:kilobitsPerSecond:keyInterval:)`` gets the bit rate and key-frame
    /// interval in its own properties' names and units, others run with their own defaults.
    let encoder: String

    static var encoder: String { GStreamerRuntime.videoEncoders(producing: "video/x-h264").first ?? "x264enc" }

    /// The length of a fragment: what a kill can lose at most.
    static let fragmentMilliseconds = 1000

    /// The movie's clock: every time in the file is a whole number of these ticks a second. 90 kHz
    /// holds a frame of every common rate (24, 25, 30, 30000/1001, 50, 60 fps) and an AAC frame
    /// of 1024 samples at 48 kHz exactly, and is what a time is stored at, so a frame's time is
    /// decided on this clock, never rounded by the muxer after it was decided.
    static let ticksPerSecond: UInt64 = 90_000

    /// `elapsed` on the movie's clock: its nearest tick, and at least a tick after `previous` (the
    /// last frame's), so two frames that came together never share a time in the file.
    static func movieTime(_ elapsed: UInt64, after previous: ClockTime?) -> ClockTime {
        let second: UInt64 = 1_000_000_000
        var ticks = scaled(elapsed, by: ticksPerSecond, over: second)
        if let previous { ticks = max(ticks, scaled(previous.nanoseconds, by: ticksPerSecond, over: second) + 1) }
        return ClockTime(nanoseconds: scaled(ticks, by: second, over: ticksPerSecond))
    }

    /// `value` × `numerator` / `denominator` to the nearest whole, without overflowing for any
    /// time a recording can reach.
    private static func scaled(_ value: UInt64, by numerator: UInt64, over denominator: UInt64) -> UInt64 {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: denominator)
        return quotient * numerator + (remainder * numerator + denominator / 2) / denominator
    }

    /// The AAC bit rate of a movie's sound.
    static let soundBitsPerSecond = 128_000

    /// Starts writing a movie of `width`x`height` I420 frames at `frameRate` to `path`, with
    /// `audio`'s sound when there is one.
    init(path: String, width: Int, height: Int, frameRate: Fraction, kilobitsPerSecond: Int,
         audio: MovieAudio? = nil) async throws(CaptureError) {
        let keyInterval = max(1, Int((frameRate.doubleValue * 2).rounded()))
        // At most two frames wait for the encoder; a third waits in the session's movie branch,
        // whose queue lets frames go (counted as lost) only when the encoder lags for seconds.
        let waiting = width * height * 3 / 2 * 2
        encoder = Self.encoder
        let encoding = encoder == "x264enc"
            ? "x264enc speed-preset=veryfast tune=zerolatency key-int-max=\(keyInterval) bitrate=\(kilobitsPerSecond) ! video/x-h264,profile=high"
            : "\(encoder) name=encoder ! video/x-h264"
        var description = "appsrc name=input format=time max-bytes=\(waiting) block=true "
            + "! video/x-raw,format=I420,width=\(width),height=\(height),framerate=\(frameRate) "
            + "! \(encoding) ! h264parse ! mp4mux name=mux trak-timescale=\(Self.ticksPerSecond) fragment-duration=\(Self.fragmentMilliseconds) "
            + "! filesink location=\"\(Self.quoted(path))\""
        if audio != nil {
            // Half a second of sound may wait for the frames it goes with.
            description += " appsrc name=sound format=time max-bytes=96000 block=true caps=\"\(Microphone.caps)\" "
                + "! voaacenc bitrate=\(Self.soundBitsPerSecond) ! aacparse ! mux."
        }
        do {
            pipeline = try Pipeline(describing: description)
        } catch {
            throw CaptureError.converting(error, context: "the movie's encoder could not be built")
        }
        guard let source = pipeline.element(named: "input", as: AppSource.self) else {
            throw CaptureError(.pipeline, "the movie's encoder has no app source")
        }
        self.source = source
        if let element = pipeline.element(named: "encoder") {
            // A property the element lacks (a board's plugin of another version) is left out.
            for (property, value) in Self.settings(of: encoder, kilobitsPerSecond: kilobitsPerSecond, keyInterval: keyInterval) {
                try? element.setProperty(property, .string(value))
            }
        }
        soundInput = pipeline.element(named: "sound", as: AppSource.self)
        let messages = pipeline.messages(bufferingNewest: 64), status = self.status
        watch = Task {
            for await message in messages {
                guard case .error(let report) = message else { continue }
                status.keep(GStreamerError(report))
                return
            }
        }
        guard let audio, let soundInput else {
            (sound, microphone, silenceWatch) = (nil, nil, nil)
            do {
                try await pipeline.beginStateChange(to: .playing)
            } catch {
                await stop()
                throw CaptureError.converting(error, context: "the movie's encoder could not start")
            }
            return
        }
        let sound = SoundTimeline()
        self.sound = sound
        let microphone: Microphone
        do throws(CaptureError) {
            do {
                try await pipeline.beginStateChange(to: .playing)
            } catch {
                throw CaptureError.converting(error, context: "the movie's encoder could not start")
            }
            microphone = try await Microphone(audio) { buffer in
                guard let time = buffer.presentationTime,
                      let movieTime = sound.movieTime(ofSoundAt: time, lasting: buffer.duration) else { return }
                // Only this thread pushes sound while the microphone runs: it goes in in order.
                Self.push(sound.hold(buffer, at: movieTime, duration: buffer.duration), into: soundInput, status: status)
            }
        } catch {
            (self.microphone, silenceWatch) = (nil, nil)
            await stop()
            throw error
        }
        self.microphone = microphone
        silenceWatch = Task { [status] in
            // Silence counts from the movie's first frame at the earliest: a recording whose first
            // frame is slow to come (a busy machine, a camera waking) is not cut before it starts.
            var firstFrameSeen: ContinuousClock.Instant?
            while !Task.isCancelled, !status.isEnding.load(ordering: .acquiring) {
                if firstFrameSeen == nil, status.hasFrames.load(ordering: .acquiring) { firstFrameSeen = .now }
                if let firstFrameSeen, min(microphone.silence, .now - firstFrameSeen) > Self.longestSilence {
                    status.isSilent.store(true, ordering: .releasing)
                    Self.endSound(soundInput, status: status)
                    return
                }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// Pushes sound into the movie's sound input.
    private static func push(_ sounds: [SoundTimeline.HeldSound], into input: AppSource, status: WriterStatus) {
        for sound in sounds {
            do throws(GStreamerError) {
                try input.push(sound.buffer, at: sound.time, duration: sound.duration)
                status.hasSound.store(true, ordering: .releasing)
            } catch {
                if !status.isEnding.load(ordering: .acquiring) { status.keep(error) }
                return
            }
        }
    }

    /// How long a microphone may send nothing before it counts as gone.
    static let longestSilence = Duration.seconds(2)

    /// The bit rate and key-frame interval in the properties of the H.264 encoders whose settings
    /// are known (software and hardware encoders GStreamer offers), in their units.
    static func settings(of encoder: String, kilobitsPerSecond: Int, keyInterval: Int) -> KeyValuePairs<String, String> {
        switch encoder {
        case "openh264enc":
            ["rate-control": "bitrate", "bitrate": "\(kilobitsPerSecond * 1000)", "max-bitrate": "\(kilobitsPerSecond * 1500)",
             "gop-size": "\(keyInterval)"]
        case "vaapih264enc":
            ["rate-control": "cbr", "bitrate": "\(kilobitsPerSecond)", "keyframe-period": "\(keyInterval)"]
        case "vah264enc", "vah264lpenc":
            ["rate-control": "cbr", "bitrate": "\(kilobitsPerSecond)", "key-int-max": "\(keyInterval)"]
        case "nvh264enc", "nvv4l2h264enc", "qsvh264enc", "msdkh264enc":
            ["bitrate": "\(encoder == "nvv4l2h264enc" ? kilobitsPerSecond * 1000 : kilobitsPerSecond)", "gop-size": "\(keyInterval)",
             "iframeinterval": "\(keyInterval)"]
        case "v4l2h264enc":
            ["extra-controls": "controls,video_bitrate=\(kilobitsPerSecond * 1000),h264_i_frame_period=\(keyInterval)"]
        default:
            [:]
        }
    }

    /// The microphone's running time, on the clock its sound is stamped on; `nil` without sound.
    var soundRunningTime: ClockTime? { microphone?.runningTime }

    /// A path as a quoted gst-launch property value.
    private static func quoted(_ path: String) -> String {
        path.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }

    /// Hands a frame to the encoder at `time` of the movie; `false` once the writer failed.
    /// Called on the movie branch's streaming thread; waits while two frames wait for the encoder.
    func push(_ buffer: Buffer, at time: ClockTime, duration: ClockTime?) -> Bool {
        if let lost = microphone?.failed { status.keep(lost, fromMicrophone: true) }
        guard status.error == nil, !status.isSilent.load(ordering: .acquiring), !status.isEnding.load(ordering: .acquiring) else { return false }
        // Sound up to this frame's end may follow it, before the push waits for the muxer,
        // which waits for that sound.
        sound?.framesReach(ClockTime(nanoseconds: time.nanoseconds + (duration?.nanoseconds ?? 0)))
        do {
            try source.push(buffer, at: time, duration: duration)
            if !status.hasFrames.load(ordering: .relaxed) { status.hasFrames.store(true, ordering: .releasing) }
            return true
        } catch {
            // A frame that meets the stream's end, asked for meanwhile, is simply not in the movie.
            if !status.isEnding.load(ordering: .acquiring) { status.keep(error) }
            return false
        }
    }

    /// The first failure, as a capture error, once there is one.
    var failed: CaptureError? {
        if status.isSilent.load(ordering: .acquiring) {
            return CaptureError(.movieNotWritten, "the microphone sent no sound for \(Self.longestSilence.components.seconds) seconds; the movie is kept up to its last whole second")
        }
        return status.error.map { error in
            let sentence = switch (error.report?.domain, error.report?.code) {
            case _ where status.isMicrophone:
                "the microphone stopped (\(error.report?.text ?? error.message)); the movie is kept up to its last whole second"
            case (.resource?, Message.Report.ResourceCode.noSpaceLeft?):
                "the disk filled while recording; the movie is kept up to its last whole second, and freeing space lets you record again"
            case (.resource?, _): "the movie's file could not be written (\(error.report?.text ?? error.message)); it is kept up to its last whole second"
            default: "the movie's encoder failed (\(error.message)); the movie is kept up to its last whole second"
            }
            return CaptureError(.movieNotWritten, sentence, debugInfo: error.debugInfo)
        }
    }

    /// Ends the movie at `end` (the end of its last frame): the frames pushed and the sound up to
    /// it are encoded and the file's index written. Returns the failure that cut it short, if one did.
    func finish(at end: ClockTime) async -> CaptureError? {
        status.isEnding.store(true, ordering: .releasing)
        if let sound, failed == nil {
            // The sound of the last frames is still on its way from the microphone: a moment's wait.
            sound.ends(at: end)
            let deadline = ContinuousClock.now + .milliseconds(500)
            while !sound.reachedEnd, microphone?.failed == nil, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        if failed == nil {
            try? source.endOfStream()
            // Once the frames have ended the muxer takes all the sound it is given: the
            // microphone's last push returns and it can close.
            await microphone?.stop()
            if let soundInput {
                // The microphone has stopped: the sound still held up to the movie's end goes in.
                if let sound, !status.soundEnded.load(ordering: .acquiring) { Self.push(sound.heldBeforeEnd(), into: soundInput, status: status) }
                Self.endSound(soundInput, status: status)
            }
            do {
                try await pipeline.waitForEndOfStream(timeout: .seconds(20))
            } catch {
                status.keep(error)
            }
        }
        await stop()
        return failed
    }

    /// Ends the sound's input. A sound track that got no sound (all of it came before the first
    /// frame) first gets a hundredth of a second of silence: a track without a sample leaves the
    /// file's index without the track's format, and no player reads the file then.
    /// Ended once: by the silence watch or by ``finish(at:)``, whichever comes first.
    private static func endSound(_ input: AppSource, status: WriterStatus) {
        guard !status.soundEnded.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if !status.hasSound.load(ordering: .acquiring) {
            let span = ClockTime(.milliseconds(10))
            let bytes = 48_000 / 100 * 2 * 2  // a hundredth of a second of the microphone's 48 kHz 16-bit stereo
            if let silence = try? Buffer(count: bytes, presentationTime: .zero, duration: span,
                                         initializingWith: { $0.initializeMemory(as: UInt8.self, repeating: 0) }) {
                try? input.push(silence, at: .zero, duration: span)
            }
        }
        try? input.endOfStream()
    }

    private func stop() async {
        silenceWatch?.cancel()
        await microphone?.stop()
        try? await pipeline.stop()
        watch.cancel()
    }
}

/// The first of the errors kept, and whether the movie is ending, shared between the bus's watch
/// and the streaming threads.
private final class WriterStatus: Sendable {
    /// Whether ``MovieWriter/finish(at:)`` has begun: frames pushed after it are let go, not failures.
    let isEnding = Atomic<Bool>(false)
    /// Whether the microphone went silent without an error, ending the movie.
    let isSilent = Atomic<Bool>(false)
    /// Whether any sound went into the movie, and whether its input has ended.
    let hasSound = Atomic<Bool>(false)
    let soundEnded = Atomic<Bool>(false)
    /// Whether a frame went into the movie.
    let hasFrames = Atomic<Bool>(false)
    private let first = Mutex<(error: GStreamerError, isMicrophone: Bool)?>(nil)

    var error: GStreamerError? { first.withLock { $0?.error } }

    /// Whether the first error was the microphone's.
    var isMicrophone: Bool { first.withLock { $0?.isMicrophone ?? false } }

    func keep(_ error: GStreamerError, fromMicrophone: Bool = false) {
        first.withLock { $0 = $0 ?? (error, fromMicrophone) }
    }
}
