import GStreamer
import Glibc
import Synchronization

/// Records the session's picture (filters, zoom and framing as photos have them) into movie files,
/// as AVCaptureMovieFileOutput does, beside the photo output: photos can be taken while recording.
///
/// Frames go from the session's branch, added to the running session when a recording starts and
/// taken out when it stops (a session that records nothing builds none), to a ``MovieWriter`` of
/// their own, in place, never copied. Each frame is dated from the recording's
/// start, less the time it was paused, so a movie plays without gaps.
///
/// ```swift
/// try await session.movieOutput.startRecording(to: path, MovieSettings(maximumDuration: 10))
/// await session.movieOutput.recordingEnded()   // its length reached
/// let movie = try await session.movieOutput.stopRecording()
/// ```
public final class MovieOutput: Sendable {
    private let state = Mutex(State())
    /// Makes the thumbnail of a movie's first frame.
    private let photoOutput: PhotoOutput

    init(photoOutput: PhotoOutput) {
        self.photoOutput = photoOutput
    }

    private struct State {
        /// The running session's pipeline and tee, while it runs with movies.
        var pipeline: Pipeline?
        var split: Element?
        /// The branch while a recording takes frames: its bin, the tee's pad it hangs from, its valve.
        var branch: Branch?
        /// The picture the image stage makes now, and the camera's frame rate.
        var image: ImageStage?
        var frameRate = Fraction(30)
        var recording: Recording?
        /// Told when a recording ends by itself (a limit, a failure); one waiter.
        var endWaiter: CheckedContinuation<Void, Never>?
    }

    /// The recording's branch in the running pipeline.
    private struct Branch: Sendable {
        let bin: Bin
        let teePad: Pad
        let valve: Element
    }

    /// A recording in progress.
    private struct Recording {
        let writer: MovieWriter
        let settings: MovieSettings
        let path: String
        let width: Int, height: Int
        let frameDuration: ClockTime
        /// The first frame's time on the session's clock, and the time spent paused since.
        var start: ClockTime?
        var pausedSpan: UInt64 = 0
        /// The movie time of the last frame written.
        var lastTime: ClockTime?
        var frames = 0
        /// Frames the camera made while recording that the movie's queue let go: the encoder
        /// could not take them as fast as they came. Those let go since the last frame taken
        /// count once the next is taken (they came before it); after the last, those before
        /// the recording's length count, the others were past the movie's end.
        var lostFrames = 0
        var framesLetGo = 0
        var isPaused = false
        /// Whether the next frame is the first after a pause.
        var resuming = false
        /// Why it ended by itself, once it did.
        var ended: MovieEnding?
        var firstFrame: Sample?
    }

    /// Whether a movie is being recorded now (paused or not).
    public var isRecording: Bool { state.withLock { $0.recording != nil } }

    /// Starts recording the session's picture into a new movie at `path`.
    ///
    /// - Throws: ``CaptureError`` when the session is not running or does not record movies
    ///   (``SessionConfiguration/movies``), a movie is already being recorded, or the encoder fails.
    public func startRecording(to path: String, _ settings: MovieSettings = MovieSettings()) async throws(CaptureError) {
        let (image, frameRate, pipeline, split) = state.withLock { ($0.image, $0.frameRate, $0.pipeline, $0.split) }
        guard let pipeline, let split, let image else {
            throw CaptureError(.notRunning, "the session is not running with movies, so nothing can be recorded")
        }
        guard !isRecording else { throw CaptureError(.invalidSetting, "a movie is being recorded already; stop it first") }
        let orientation = ExifOrientation(rotation: image.settings.rotation, mirrored: image.settings.mirrorsPhotos)
        let picture = image.outputSize
        let width = picture.width / 2 * 2, height = picture.height / 2 * 2
        let (shownWidth, shownHeight) = orientation.swapsSides ? (height, width) : (width, height)
        let writer = try await MovieWriter(path: path, width: shownWidth, height: shownHeight, frameRate: frameRate,
                                           kilobitsPerSecond: settings.kilobitsPerSecond ?? Self.bitRate(width: width, height: height, frameRate: frameRate),
                                           audio: settings.audio)
        if let sound = writer.sound {
            let session = state.withLock { $0.pipeline }
            if let soundTime = writer.soundRunningTime, let sessionTime = session?.runningTime {
                sound.align(microphone: soundTime, session: sessionTime)
            }
        }
        let frameDuration = ClockTime(nanoseconds: UInt64(1e9 / max(1, frameRate.doubleValue)))
        let started = state.withLock { state -> Bool in
            guard state.recording == nil else { return false }
            state.recording = Recording(writer: writer, settings: settings, path: path, width: shownWidth, height: shownHeight,
                                        frameDuration: frameDuration)
            return true
        }
        guard started else {
            _ = await writer.finish(at: .zero)
            throw CaptureError(.invalidSetting, "a movie is being recorded already; stop it first")
        }
        do {
            let branch = try addBranch(to: pipeline, at: split, width: width, height: height, frameRate: frameRate,
                                       direction: ExifOrientation.direction(ofMethod: orientation.showing))
            let kept = state.withLock { state -> Bool in
                guard state.pipeline === pipeline else { return false }  // the session stopped meanwhile
                state.branch = branch
                return true
            }
            if !kept { await Self.remove(branch, from: pipeline, at: split) }
        } catch {
            state.withLock { $0.recording = nil }
            _ = await writer.finish(at: .zero)
            throw CaptureError.converting(error, context: "the recording's branch could not be added")
        }
    }

    /// Adds the recording's branch to the running pipeline: a queue holding two seconds of frames
    /// (the encoder may lag a moment), the valve, the recording's size and turn, and an app sink
    /// that hands frames on without dropping any; it plays before the tee's new pad is linked to it.
    private func addBranch(to pipeline: Pipeline, at split: Element, width: Int, height: Int, frameRate: Fraction,
                           direction: String) throws(CaptureError) -> Branch {
        let queued = max(2, Int((frameRate.doubleValue * 2).rounded()))
        do {
            let bin = try Bin(fragment: "queue \(SessionElement.movieQueue.assignment) max-size-buffers=\(queued) max-size-bytes=0 max-size-time=0 leaky=downstream "
                + "! valve \(SessionElement.movieValve.assignment) ! videoscale add-borders=true ! videoconvert "
                + "! capsfilter caps=\"video/x-raw,format=I420,width=\(width),height=\(height)\" "
                + "! videoflip video-direction=\(direction) ! appsink \(SessionElement.movieFrames.assignment) "
                + "sync=false async=false max-buffers=0 drop=false wait-on-eos=false")
            guard let queue = bin.element(named: SessionElement.movieQueue.rawValue), let valve = bin.element(named: SessionElement.movieValve.rawValue),
                  let frames = bin.element(named: SessionElement.movieFrames.rawValue, as: AppSink.self), let input = queue.staticPad(named: "sink") else {
                throw CaptureError(.pipeline, "the recording's branch lacks its elements")
            }
            frames.setHandlers(onSample: { [self] in deliver($0) })
            queue.on("overrun") { [self] in queueOverran() }
            try bin.exposePad(input, as: "sink")
            try pipeline.add(bin)
            try bin.syncStateWithParent()
            let teePad = try split.requestPad("src_%u")
            do {
                try teePad.link(to: try SessionGraph.pad("sink", of: bin))
            } catch {
                split.releaseRequestPad(teePad)
                throw error
            }
            return Branch(bin: bin, teePad: teePad, valve: valve)
        } catch {
            throw CaptureError.converting(error, context: "the recording's branch could not be built")
        }
    }

    /// Takes a recording's branch out of the running pipeline, the tee's pad held meanwhile (from
    /// the moment no frame passes it, so stopping does not wait for the camera's next frame).
    private static func remove(_ branch: Branch, from pipeline: Pipeline, at split: Element) async {
        try? branch.valve.setProperty("drop", true)
        let hold = await branch.teePad.holdWhenIdle(waitingAtMost: SessionGraph.holdWait)
        if let input = branch.bin.staticPad(named: "sink") { branch.teePad.unlink(from: input) }
        hold.remove()
        split.releaseRequestPad(branch.teePad)
        try? await branch.bin.changeState(to: .null)
        try? pipeline.remove(branch.bin)
    }

    /// A bit rate that keeps detail at the frame size and rate: about an eighth of a bit a pixel.
    static func bitRate(width: Int, height: Int, frameRate: Fraction) -> Int {
        max(500, Int(Double(width * height) * frameRate.doubleValue / 8 / 1000))
    }

    /// Stops taking frames into the movie until ``resumeRecording()``; the movie shows no gap.
    public func pauseRecording() {
        let valve = state.withLock { state -> Element? in
            guard state.recording != nil else { return nil }
            state.recording?.isPaused = true
            state.recording?.writer.sound?.pause()
            return state.branch?.valve
        }
        try? valve?.setProperty("drop", true)
    }

    /// Takes frames into the paused movie again.
    public func resumeRecording() {
        let valve = state.withLock { state -> Element? in
            guard let recording = state.recording, recording.isPaused, recording.ended == nil else { return nil }
            state.recording?.isPaused = false
            state.recording?.resuming = true
            return state.branch?.valve
        }
        try? valve?.setProperty("drop", false)
    }

    /// Whether the movie is paused now.
    public var isPaused: Bool { state.withLock { $0.recording?.isPaused ?? false } }

    /// Waits until the recording ends by itself: it reached its length or size, or its file
    /// could not be written. Returns at once when nothing is recorded. One caller waits at a time.
    public func recordingEnded() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                guard let recording = state.recording, recording.ended == nil else { return true }
                state.endWaiter?.resume()
                state.endWaiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Ends the recording as if it had reached its end: no frame is taken after this one, and
    /// whoever waits in ``recordingEnded()`` goes on (to ``stopRecording()``).
    public func endRecording() {
        let valve = state.withLock { state -> Element? in
            guard state.recording != nil else { return nil }
            if state.recording?.ended == nil { state.recording?.ended = .stopped }
            state.endWaiter?.resume()
            state.endWaiter = nil
            return state.branch?.valve
        }
        try? valve?.setProperty("drop", true)
    }

    /// Ends the movie: the frames taken are encoded and the file's index written.
    ///
    /// - Returns: What was recorded; its ``RecordedMovie/failure`` says when the file could not be
    ///   written to its end (what was written whole before stays).
    /// - Throws: ``CaptureError`` when no movie is being recorded.
    public func stopRecording() async throws(CaptureError) -> RecordedMovie {
        let taken = state.withLock { state -> (Recording, Branch?, Pipeline?, Element?)? in
            guard let recording = state.recording else { return nil }
            state.recording = nil
            state.endWaiter?.resume()
            state.endWaiter = nil
            defer { state.branch = nil }
            return (recording, state.branch, state.pipeline, state.split)
        }
        guard let (recording, branch, pipeline, split) = taken else { throw CaptureError(.invalidSetting, "no movie is being recorded") }
        if let branch, let pipeline, let split {
            await Self.remove(branch, from: pipeline, at: split)
        }
        let end = recording.lastTime.map { ClockTime(nanoseconds: $0.nanoseconds + recording.frameDuration.nanoseconds) } ?? .zero
        let failure = await recording.writer.finish(at: end)
        let duration = end.seconds
        var thumbnail: [UInt8] = []
        if let first = recording.firstFrame { thumbnail = await photoOutput.thumbnail(of: first, maximumSide: 320) ?? [] }
        return RecordedMovie(path: recording.path, width: recording.width, height: recording.height, frameCount: recording.frames,
                             lostFrameCount: recording.lostFrames, duration: duration, ending: failure.map { .failed($0) } ?? recording.ended ?? .stopped,
                             encoder: recording.writer.encoder, hasSound: recording.writer.sound != nil, thumbnail: thumbnail)
    }

    /// Called on the movie branch's streaming thread with each frame while the valve is open. The
    /// frame is dated under the lock and pushed outside it: a push waits while the encoder has
    /// frames enough in hand, and nothing else waits for that. A frame that begins at or after the
    /// recording's length is not taken: it ends the recording.
    private func deliver(_ sample: Sample) {
        guard let buffer = sample.buffer, let time = sample.runningTime else { return }
        let dated = state.withLock { state -> FrameDating in
            guard var recording = state.recording, !recording.isPaused, recording.ended == nil else { return .notTaken }
            defer { state.recording = recording }
            let start = recording.start ?? time
            if recording.start == nil {
                recording.start = time
                recording.firstFrame = sample
                recording.resuming = false
                recording.writer.sound?.started(at: time)
            }
            if recording.resuming, let last = recording.lastTime {
                // The pause's span leaves the movie: this frame follows the last one written.
                let elapsed = time.nanoseconds &- start.nanoseconds
                recording.pausedSpan = elapsed &- (last.nanoseconds + recording.frameDuration.nanoseconds)
                recording.resuming = false
                recording.writer.sound?.resumed(pausedSpan: recording.pausedSpan)
            }
            let elapsed = time.nanoseconds >= start.nanoseconds + recording.pausedSpan ? time.nanoseconds - start.nanoseconds - recording.pausedSpan : 0
            let movieTime = MovieWriter.movieTime(elapsed, after: recording.lastTime)
            if let limit = recording.settings.maximumDuration, let last = recording.lastTime, movieTime.seconds >= limit - 1e-6 {
                // Of the frames let go since the last one taken, those the camera made before the
                // movie's end are lost from it.
                let beforeEnd = Int(((limit - last.seconds) / recording.frameDuration.seconds - 1e-3).rounded(.up)) - 1
                recording.lostFrames += min(recording.framesLetGo, max(0, beforeEnd))
                recording.ended = .reachedDuration
                return .endsRecording
            }
            recording.lastTime = movieTime
            recording.frames += 1
            recording.lostFrames += recording.framesLetGo
            recording.framesLetGo = 0
            return .taken(writer: recording.writer, time: movieTime, duration: recording.frameDuration)
        }
        let taken: (writer: MovieWriter, time: ClockTime, duration: ClockTime)
        switch dated {
        case .notTaken: return
        case .endsRecording: return endByItself()
        case .taken(let writer, let time, let duration): taken = (writer, time, duration)
        }
        let pushed = taken.writer.push(buffer, at: taken.time, duration: taken.duration)
        let ended = state.withLock { state -> Bool in
            guard var recording = state.recording, recording.writer === taken.writer, recording.ended == nil else { return false }
            defer { state.recording = recording }
            if !pushed {
                recording.frames -= 1
                recording.ended = .failed(recording.writer.failed ?? CaptureError(.movieNotWritten, "the movie's file could not be written"))
            } else if let limit = recording.settings.maximumDuration,
                      Double(taken.time.nanoseconds + taken.duration.nanoseconds) / 1e9 >= limit - 1e-6 {
                recording.ended = .reachedDuration
            } else if let limit = recording.settings.maximumBytes, recording.frames % 15 == 0, Self.nearsSize(limit, recording) {
                recording.ended = .reachedSize
            }
            return recording.ended != nil
        }
        if ended { endByItself() }
    }

    /// What becomes of a frame that reaches the movie's app sink.
    private enum FrameDating {
        /// Nothing is being recorded, or the recording is paused or has ended.
        case notTaken
        /// It begins at or after the recording's length, which it ends.
        case endsRecording
        /// It goes into the movie at `time`.
        case taken(writer: MovieWriter, time: ClockTime, duration: ClockTime)
    }

    /// Tells whoever waits that the recording ended by itself, and shuts its valve.
    private func endByItself() {
        let valve = state.withLock { state -> Element? in
            state.endWaiter?.resume()
            state.endWaiter = nil
            return state.branch?.valve
        }
        try? valve?.setProperty("drop", true)
    }

    /// Notes a frame the movie's queue let go (it was full: the encoder lags by its length), when
    /// a recording has taken its first frame and takes more. The queue lets its oldest frame go,
    /// one after the frame the movie took last. Called on the camera's streaming thread.
    private func queueOverran() {
        state.withLock { state in
            guard let recording = state.recording, recording.start != nil, !recording.isPaused, recording.ended == nil else { return }
            state.recording?.framesLetGo += 1
        }
    }

    /// Whether the file is within a second and a half of `limit` bytes at its rate so far: the
    /// fragment being made and the file's index still come.
    private static func nearsSize(_ limit: Int, _ recording: Recording) -> Bool {
        var status = stat()
        guard stat(recording.path, &status) == 0, let last = recording.lastTime, last.nanoseconds > 0 else { return false }
        let perSecond = Double(status.st_size) / (Double(last.nanoseconds) / 1e9)
        return Double(status.st_size) + perSecond * 1.5 >= Double(limit)
    }
}

extension MovieOutput: SessionOutput {
    /// None: the recording's branch is added while a recording runs (``startRecording(to:_:)``).
    func branch(in layout: SessionPipeline) -> String? { nil }

    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) {
        guard layout.configuration.movies else { return }
        state.withLock { state in
            (state.pipeline, state.split, state.branch) = (graph.pipeline, graph.split, nil)
            (state.image, state.frameRate) = (layout.image, layout.format.frameRate)
        }
    }

    /// A recording keeps its size and turn; the next one takes the new picture's.
    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) {
        state.withLock { $0.image = layout.image }
    }

    /// The pipeline stops, its branch with it: a recording in progress ends, to be stopped and kept.
    func detach(_ reason: CaptureError) {
        state.withLock { state in
            if state.recording != nil, state.recording?.ended == nil { state.recording?.ended = .sessionStopped }
            (state.pipeline, state.split, state.branch, state.image) = (nil, nil, nil, nil)
            state.endWaiter?.resume()
            state.endWaiter = nil
        }
    }
}

/// How a movie is recorded.
public struct MovieSettings: Sendable, Equatable {
    /// Seconds after which the recording ends by itself; `nil` for no limit.
    public var maximumDuration: Double?
    /// Bytes the file stays within, ending the recording by itself; `nil` for no limit.
    public var maximumBytes: Int?
    /// The H.264 bit rate; `nil` chooses one for the picture's size and rate.
    public var kilobitsPerSecond: Int?
    /// Where the movie's sound comes from; `nil` for a silent movie.
    public var audio: MovieAudio?

    public init(maximumDuration: Double? = nil, maximumBytes: Int? = nil, kilobitsPerSecond: Int? = nil, audio: MovieAudio? = nil) {
        (self.maximumDuration, self.maximumBytes, self.kilobitsPerSecond) = (maximumDuration, maximumBytes, kilobitsPerSecond)
        self.audio = audio
    }
}

/// Why a recording ended.
public enum MovieEnding: Sendable, Equatable {
    /// It was stopped.
    case stopped
    /// It reached ``MovieSettings/maximumDuration``.
    case reachedDuration
    /// It neared ``MovieSettings/maximumBytes``.
    case reachedSize
    /// The session stopped (the camera went away, or the session was stopped).
    case sessionStopped
    /// Its file could not be written on; what was written whole before stays.
    case failed(CaptureError)
}

/// A movie recorded: its file, picture, frames and length, and how it ended.
public struct RecordedMovie: Sendable {
    public let path: String
    public let width: Int
    public let height: Int
    /// The frames handed to the encoder.
    public let frameCount: Int
    /// Frames the camera made while recording that the movie lacks: the encoder could not take
    /// them as fast as they came (a picture too large for the machine at its rate).
    public let lostFrameCount: Int
    /// Seconds, from the first frame to the end of the last.
    public let duration: Double
    public let ending: MovieEnding
    /// The H.264 encoder's element (`x264enc`, or a hardware encoder ranked above it).
    public let encoder: String
    /// Whether the movie has a sound track (AAC).
    public let hasSound: Bool
    /// The first frame as a JPEG of at most 320 pixels a side; empty when none could be made.
    public let thumbnail: [UInt8]

    /// The failure that cut it short, if one did.
    public var failure: CaptureError? {
        if case .failed(let error) = ending { return error }
        return nil
    }
}
