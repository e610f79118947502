import CameraKit
import CameraOperator
import FileSystem
import Formatting
import FoundationEssentials
import Glibc
import OperatorWire
import PhotoLibrary
import Synchronization

/// The command line's side of a ``SessionOperator``: it hands over the delivery the options
/// chose, prints each picture as it is written (its path, or its JSON object) and each hook that
/// failed, shows countdowns in the terminal, and turns failures into exit codes.
final class OperatorConsole: Sendable {
    /// The operator every action goes through.
    let sessionOperator: SessionOperator
    private let printsJSON: Bool
    private let progress: Task<Void, Never>
    /// Whether a review waits for its verdict, as the operator's events tell.
    private let reviews = ReviewWatch()
    /// The movie being recorded: the task that prints it once kept, and a failure to tell.
    private let movie = MovieWatch()
    /// The camera operated on.
    private let device: CaptureDevice
    /// The picture written last (a photo or a composition), for a description file's `printout`.
    private let lastWritten: LastWritten
    /// Why an event's JSON line could not be written (the reader went away), once one could not.
    private let lostReader = LostReader()

    /// An operator for `session`, running on `device`, delivering as `saving` says. With
    /// `endingOnLostReader`, an event's JSON line that cannot be written ends the command
    /// (``readerFailure`` says why), as a preview, which prints no results, needs.
    init(session: CaptureSession, device: CaptureDevice, saving: sending PhotoSaving, albums: [String] = [],
         compositionCopy: String? = nil, endingOnLostReader controls: ControlInbox? = nil) {
        let printsJSON = saving.printsJSON, delivery = saving.delivery
        let (copy, sidecar) = (delivery.copy, delivery.sidecar)
        let hookCommand = delivery.hook?.command ?? ""
        self.printsJSON = printsJSON
        self.device = device
        let lastWritten = LastWritten()
        self.lastWritten = lastWritten
        sessionOperator = SessionOperator(camera: session, delivery: delivery, device: device, albums: albums,
                                 compositionCopy: PhotoSaving.target(compositionCopy), report: { [lastWritten] delivered in
            lastWritten.picture.withLock { $0 = delivered }
            try PhotoSaving.report(delivered, printsJSON: printsJSON, copy: copy, sidecar: sidecar)
        })
        let told = sessionOperator.events()  // from the camera's start on
        let liveViewTold = Once()
        progress = Task { [reviews, sessionOperator, lostReader] in
            for await event in told {
                // With --json, every event is printed as the API sends it (the pictures kept are
                // printed as results, as the command makes them).
                if printsJSON, Self.printsAsEvent(event) {
                    do throws(CommandFailure) {
                        try Console.json(event.record(wording: \.commandLineSentence))
                    } catch {
                        // Else a reader gone away is told by the results' printing.
                        lostReader.failure.withLock { $0 = $0 ?? error }
                        controls?.post(.finish)
                    }
                }
                switch event {
                case .countdown(let left):
                    Console.progress("taking the photo in \(left)…", replacing: true)
                case .shot(let number, let count) where count > 1:
                    Console.progress("shot \(number) of \(count)")
                case .retakeOffered(let shot):
                    Console.progress("shot \(shot) taken: a takes it again")
                case .reviewing(_, let timeout):
                    // A verdict typed or piped before this review showed is this review's.
                    if let verdict = reviews.began() { await sessionOperator.answer(.decide(verdict)) }
                    let after = timeout.map { String(printf: "; kept after %g seconds without an answer", $0) } ?? ""
                    Console.progress("review: Enter or k keeps, Backspace, Delete or x discards" + after)
                case .kept(_, let answered):
                    reviews.ended()
                    if !answered { Console.progress("no answer came: kept") }
                case .discarded(let count, _):
                    reviews.ended()
                    Console.note(count == 1 ? "the photo was discarded; nothing of it was saved"
                                 : "the \(count) pictures were discarded; nothing of them was saved")
                case .hookFailed(let path, let ending):
                    Console.note(Self.hookNote(hookCommand, ending, path))
                case .processingFailed(let id, let reason):
                    Console.note("photo \(id) could not be finished as HEIC (\(reason)); its JPEG proxy is kept as the photo")
                case .interrupted(let error) where !printsJSON:  // a failure is thrown, and said once
                    Console.note(error.commandLineSentence)
                case .resumed where !printsJSON:
                    Console.note("the camera is back")
                case .noLiveView(let name) where !printsJSON && liveViewTold.first():  // once, however often the camera starts again
                    Console.note("\(name) has no live view; the preview shows its last photo")
                case .printing(let printer, let job) where !printsJSON:
                    Console.note("printing on \(printer) (job \(job))")
                case .printProgress(let printer, _, let number, let count) where !printsJSON:
                    Console.note("printing on \(printer): \(number) of \(count)")
                case .printed(let printer, _) where !printsJSON:  // a print that failed is thrown, and said once
                    Console.note("printed on \(printer)")
                case .burstSkipped(let frames):
                    Console.note("the burst let \(frames.count) frame\(frames.count == 1 ? "" : "s") pass while the photos in hand filled its memory (--burst-memory): the camera was faster than the encoder")
                default:
                    break
                }
            }
        }
    }

    /// Whether `--json` prints an event as one: all but a picture the command prints as its
    /// result (a photo, one made final, a movie, a booth's clip) and the session's stop or
    /// failure, which are the command's own end and failure, told by its exit and its sentence.
    private static func printsAsEvent(_ event: OperatorEvent) -> Bool {
        switch event {
        case .photo, .processed, .movieKept, .animationKept, .stopped, .failed: false
        default: true
        }
    }

    deinit {
        progress.cancel()
    }

    /// Waits until the photos finished after their shots are final; each is printed then, and
    /// every event told so far.
    ///
    /// - Throws: exit code 74 when standard output refused one (the photos are kept).
    func finishProcessing() async throws(CommandFailure) {
        let finished: Result<Void, OperatorError>
        do {
            try await sessionOperator.finishProcessing()
            finished = .success(())
        } catch {
            finished = .failure(error)
        }
        await sessionOperator.endEvents()
        await progress.value
        do {
            try finished.get()
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Does what the action asks. With `notingCameraFailure`, a failure of the camera is noted
    /// after that text instead (a preview goes on), and `nil` returned.
    @discardableResult
    func perform(_ action: Action, notingCameraFailure context: String? = nil) async throws(CommandFailure) -> Outcome? {
        let outcome: Outcome
        do {
            outcome = try await sessionOperator.perform(action)
        } catch .capture(let failure) where context != nil {
            Console.note("\(context ?? ""): \(failure.commandLineSentence)")
            return nil
        } catch {
            throw CommandFailure(error)
        }
        return outcome
    }

    /// Does what a key other than the shutter asks: the next camera, the next filter, zoom in or
    /// out, pause or resume the preview; says what it did on the terminal. The shutter, finish
    /// and interrupt are the command's to act on, and do nothing here.
    func act(on key: Control) async throws(CommandFailure) {
        let operated = sessionOperator.camera
        switch key {
        case .switchCamera:
            switch try await perform(.nextCamera, notingCameraFailure: "could not switch cameras") {
            case .switched(let next)?: Console.progress("switched to \(next.name)")
            case .noOtherCamera?: Console.progress("there is no other camera to switch to")
            default: break
            }
        case .nextFilter, .zoom:
            // From the picture as it is when the change's turn comes, so a change from elsewhere meanwhile is kept.
            let change: @Sendable (ImageSettings) -> ImageSettings = { now in
                key == .nextFilter ? now.withNextFilter() : now.zoomed(in: key == .zoom(in: true))
            }
            guard case .imageChanged(let image)? = try await perform(.adjustImage(change), notingCameraFailure: "could not change the picture")
            else { return }
            Console.progress(key == .nextFilter ? "filter: \((image.filters.first ?? .none).rawValue)" : String(printf: "zoom: %.2fx", image.zoom))
        case .togglePreview:
            let paused = operated.isPreviewPaused
            try await perform(paused ? .resumePreview : .pausePreview)
            Console.progress(paused ? "preview resumed" : "preview paused (p resumes)")
        case .toggleRecording:
            if await sessionOperator.isRecording {
                do {
                    try await stopAndKeepMovie()
                } catch {
                    Console.note(error.message)
                }
            } else {
                try await startRecording(await movieSettings(), notingCameraFailure: true)
            }
        case .toggleMoviePause:
            guard await sessionOperator.isRecording else {
                Console.progress("no movie is being recorded to pause")
                return
            }
            let pausing = !operated.isRecordingPaused
            guard case .recordingPaused(let paused)? = try await perform(pausing ? .pauseRecording : .resumeRecording,
                                                                         notingCameraFailure: pausing ? "could not pause the movie" : "could not resume the movie")
            else { return }
            Console.progress(paused ? "recording paused (m resumes)" : "recording resumed")
        case .captureNow, .keep, .discard, .retake, .finish, .interrupt:
            break
        }
    }

    /// Does what a key asks as ``act(on:)`` does, beside a wait or a review: a failure is noted on
    /// standard error, and the wait goes on.
    func actNoting(on key: Control) async {
        do {
            try await act(on: key)
        } catch {
            Console.note(error.message)
        }
    }

    /// A movie's settings when its starter asks for nothing but a length: the sound the camera
    /// gets by default (a system camera's microphone).
    func movieSettings(maximumDuration: Double? = nil) async -> MovieSettings {
        MovieSettings(maximumDuration: maximumDuration, audio: await MovieAudio.automatic(for: device))
    }

    /// Starts a movie; once it ends (asked to, or by itself at its length or size, or cut short)
    /// it is printed (its path, or its JSON object) and `ended` is called. Returns its path while
    /// recording; `nil` when it did not start and `notingCameraFailure` noted why.
    @discardableResult
    func startRecording(_ settings: MovieSettings, copyTo copy: String? = nil, notingCameraFailure: Bool = false,
                        ended: @escaping @Sendable () -> Void = {}) async throws(CommandFailure) -> String? {
        guard case .recordingStarted(let path)? = try await perform(.startRecording(settings),
                                                                    notingCameraFailure: notingCameraFailure ? "no movie" : nil) else {
            return nil
        }
        movie.begin()
        let watch = Task { [sessionOperator, printsJSON, movie] in
            do throws(OperatorError) {
                let kept = try await sessionOperator.movieKept()
                do {
                    if let copy { try await PhotoSaving.onLane { () throws(CommandFailure) in try Self.copy(kept, to: copy) } }
                    if copy == "-" {
                        if printsJSON { try Console.json(kept.record) }
                    } else if printsJSON {
                        var record = kept.record
                        record.output = copy
                        try Console.json(record)
                    } else {
                        try Console.result(kept.libraryMovie.path)
                        Console.progress(String(printf: "%d frames, %.2f seconds, %dx%d", kept.frameCount, kept.libraryMovie.duration ?? 0,
                                                kept.libraryMovie.width, kept.libraryMovie.height))
                    }
                    if kept.recorded.lostFrameCount > 0 { Console.note(Self.lostFramesNote(kept)) }
                    if let failure = kept.recorded.failure { movie.keep(CommandFailure(failure)) }
                } catch {
                    movie.keep(error as? CommandFailure ?? CommandFailure("the movie was kept, but could not be reported", exitCode: .ioError))
                }
            } catch .notRecording {
            } catch {
                movie.keep(CommandFailure(error))
            }
            movie.finished()
            ended()
        }
        movie.watch(watch)
        Console.progress("recording into \(path)")
        return path
    }

    /// Ends a command's session: a movie being recorded is kept and printed, the session stops,
    /// and photos finished after their shots are made final.
    ///
    /// - Throws: The first failure among those, once all are done.
    func end(_ session: CaptureSession) async throws(CommandFailure) {
        let kept: Result<Void, CommandFailure>
        do {
            try await stopAndKeepMovie()
            kept = .success(())
        } catch {
            kept = .failure(error)
        }
        await session.stop()
        try await finishProcessing()
        try kept.get()
    }

    /// What to tell when a movie lacks frames the camera made: the encoder could not keep up.
    private static func lostFramesNote(_ movie: KeptMovie) -> String {
        "the movie lacks \(movie.recorded.lostFrameCount) of the camera's frames (it has \(movie.frameCount)): this machine could not "
            + "encode \(movie.recorded.width)x\(movie.recorded.height) as fast as they came; record a smaller --resolution or a lower rate"
    }

    /// Copies a kept movie to `path` (`-`: standard output).
    private static func copy(_ movie: KeptMovie, to path: String) throws(CommandFailure) {
        do throws(DurableFile.WriteError) {
            if path == "-" {
                let input = open(movie.libraryMovie.path, O_RDONLY | O_CLOEXEC)
                guard input >= 0 else { throw DurableFile.WriteError(path: movie.libraryMovie.path, code: errno) }
                defer { close(input) }
                let failure = DurableFile.copyAll(from: input, to: STDOUT_FILENO)
                guard failure == 0 else { throw DurableFile.WriteError(path: path, code: failure) }
            } else {
                try OutputFile.copy(movie.libraryMovie.path, to: path)
            }
        } catch {
            let base = CommandFailure(LibraryError(error))
            throw CommandFailure(base.message + "; the movie is in the library as \(movie.libraryMovie.path)", exitCode: base.exitCode)
        }
    }

    /// Whether a movie started here is still being recorded or kept.
    var isWatchingMovie: Bool { movie.isWatching }

    /// Ends the movie being recorded, if one is, and waits until it is printed.
    ///
    /// - Throws: The failure that cut a movie short (exit code 74: its file could not be written
    ///   to its end; what was whole is kept), or kept it from being kept or printed, once.
    func stopAndKeepMovie() async throws(CommandFailure) {
        // Stopping fails only as keeping the movie fails: its watch holds that failure, thrown below.
        if await sessionOperator.isRecording { _ = try? await sessionOperator.perform(.stopRecording) }
        await movie.watching?.value
        if let failure = movie.takeFailure() { throw failure }
    }

    /// Keeps what is held without waiting (a run ending with photos after its last review).
    func keepHeld() async throws(CommandFailure) {
        guard case .decided(true)? = try await perform(.decide(.keep)) else { return }
        try await perform(.review(ReviewPlan(timeout: nil)))
    }

    /// Reviews what the operator holds as `plan` says: shows it on the preview and waits for a
    /// verdict from the keys (Enter, Space, k or SIGUSR1 keep; Backspace, Delete or x discard),
    /// or from the lines `keep` and `discard` on standard input. `q` and interrupts keep it too,
    /// and are returned. Kept pictures are printed as ever; a discard is noted on standard error.
    /// With --json, the review's events are printed too, so a script can answer.
    func review(_ plan: ReviewPlan, controls: ControlInbox) async throws(CommandFailure) -> Control? {
        let answering = Task { [self, sessionOperator] () -> Control? in
            while let control = await controls.next(within: nil) {
                switch control {
                case .keep, .captureNow, .discard:
                    await sessionOperator.answer(.decide(control == .discard ? .discard : .keep))
                    return nil
                case .finish, .interrupt:
                    await sessionOperator.answer(.decide(.keep))
                    return control
                default:
                    await actNoting(on: control)
                }
            }
            return nil
        }
        try await perform(.review(plan))
        answering.cancel()
        return await answering.value
    }

    /// Runs a booth or a capture (`.booth`, `.capture`) with the keys: the shutter ends a countdown,
    /// an interval or a showing at once (and keeps, while a picture is reviewed), `q` ends the run
    /// after the shot in hand, `k` keeps and Backspace, Delete or `x` discard the picture under
    /// review, or the next one to be reviewed when typed (or piped) before it is. An interrupt ends
    /// it at once (no result shown), keeping what was taken; it and `q` are returned, with the run's outcome.
    func run(_ action: Action, controls: ControlInbox) async throws(CommandFailure) -> (ending: Control?, outcome: Outcome?) {
        let answering = Task { [self, sessionOperator, reviews] () -> Control? in
            var ending: Control?
            while ending != .interrupt, let control = await controls.next(within: nil) {
                switch control {
                case .captureNow:
                    await sessionOperator.answer(reviews.isWaiting ? .decide(.keep) : .cutShort)
                case .retake:
                    await sessionOperator.answer(.retake)
                case .keep, .discard:
                    // A verdict typed or piped before a review shows waits for it (the next one).
                    let verdict: Verdict = control == .discard ? .discard : .keep
                    if reviews.isWaiting || !reviews.keepForNext(verdict) { await sessionOperator.answer(.decide(verdict)) }
                case .finish, .interrupt:
                    // Ended after the shot in hand; a picture held or under review is kept. A
                    // hook is ended only once the run knows it ends, so no photo follows it.
                    ending = control
                    await sessionOperator.answer(.endRun)
                    if control == .interrupt { Hook.endRunning() }
                    await sessionOperator.answer(.decide(.keep))
                default:
                    await actNoting(on: control)
                }
            }
            return ending
        }
        let outcome: Outcome?
        do {
            outcome = try await controls.endingHooks { () throws(CommandFailure) in try await perform(action) }
        } catch {
            answering.cancel()
            throw error
        }
        answering.cancel()
        return (await answering.value, outcome)
    }

    /// Counts down on the preview and in the terminal. The shutter (Space, Enter, SIGUSR1), `q`
    /// and interrupts cut it short and are returned; other keys do their own job meanwhile.
    func countDown(_ seconds: Double, controls: ControlInbox) async -> Control? {
        guard seconds > 0 else { return nil }
        defer { Console.endProgressLine() }
        return await run(.countdown(seconds: seconds), cutBy: controls)
    }

    /// Shows the attract screen between a booth's guests until the shutter (the next guest), `q`
    /// or an interrupt, which is returned; other keys do their own job meanwhile.
    func attract(_ plan: AttractPlan, controls: ControlInbox) async -> Control? {
        await run(.attract(plan), cutBy: controls)
    }

    /// Runs a wait (a countdown, a picture shown, the attract screen) until it ends or a shutter, `q` or interrupt
    /// comes, which is returned; other keys do their own job meanwhile.
    private func run(_ wait: Action, cutBy controls: ControlInbox) async -> Control? {
        await withTaskGroup(of: Control?.self) { [sessionOperator] group in
            group.addTask {
                // A countdown or a showing fails only with nothing to show, which shows nothing.
                _ = try? await sessionOperator.perform(wait)
                return nil
            }
            group.addTask { [self] in
                while let control = await controls.next(within: nil) {
                    switch control {
                    case .captureNow, .finish, .interrupt: return control
                    default: await actNoting(on: control)
                    }
                }
                return nil
            }
            var cutBy: Control?
            for await ending in group {
                // The first to end ends the other: a control cuts the wait; a wait that ran out
                // stops waiting for a control (one that came meanwhile still counts).
                if cutBy == nil { cutBy = ending }
                await sessionOperator.answer(.cutShort)
                group.cancelAll()
            }
            return cutBy
        }
    }

    /// What to say of a hook that failed for the picture at `path`.
    private static func hookNote(_ command: String, _ ending: Hook.Ending, _ path: String) -> String {
        switch ending {
        case .exited(let status): "--exec \"\(command)\" ended with status \(status) for \(path)"
        case .signalled(let signal): "--exec \"\(command)\" was ended by signal \(signal) (\(String(cString: strsignal(signal)))) for \(path)"
        }
    }
}

/// A review as the operator's events tell it: whether one waits for its verdict, and a verdict
/// given before it showed, kept for it.
private final class ReviewWatch: Sendable {
    private let state = Mutex<(waiting: Bool, next: Verdict?)>((false, nil))

    /// A review shows: the verdict kept for it, if one was.
    func began() -> Verdict? {
        state.withLock { state in
            defer { state = (true, nil) }
            return state.next
        }
    }

    func ended() {
        state.withLock { $0.waiting = false }
    }

    /// Keeps `verdict` for the next review; `false` when one waits now (answer it instead).
    func keepForNext(_ verdict: Verdict) -> Bool {
        state.withLock { state in
            guard !state.waiting else { return false }
            state.next = verdict
            return true
        }
    }

    var isWaiting: Bool { state.withLock { $0.waiting } }
}

/// The console's side of a movie: the task that prints it once it is kept, and the failure that
/// cut it short, kept for the command to end with.
final class MovieWatch: Sendable {
    private let state = Mutex<(watch: Task<Void, Never>?, isWatching: Bool, failure: CommandFailure?)>((nil, false, nil))

    /// A movie started: its printing task comes next.
    func begin() {
        state.withLock { $0.isWatching = true }
    }

    func watch(_ task: Task<Void, Never>) {
        state.withLock { $0.watch = task }
    }

    /// The movie was printed (or failed to be kept).
    func finished() {
        state.withLock { $0.isWatching = false }
    }

    var isWatching: Bool { state.withLock { $0.isWatching } }

    var watching: Task<Void, Never>? { state.withLock { $0.watch } }

    func keep(_ failure: CommandFailure) {
        state.withLock { $0.failure = $0.failure ?? failure }
    }

    func takeFailure() -> CommandFailure? {
        state.withLock { state in
            defer { state.failure = nil }
            return state.failure
        }
    }
}

extension SessionOperator {
    /// Answers a running flow: a review's verdict, a countdown or showing cut short, a booth's
    /// end. These only set what the flow waits for; the operator has no failure for them.
    fileprivate func answer(_ action: Action) async {
        _ = try? await perform(action)
    }
}

/// The picture an operator wrote last, as its report saw it.
private final class LastWritten: Sendable {
    let picture = Mutex<Delivered?>(nil)
}

/// Why an event's JSON line could not be written.
private final class LostReader: Sendable {
    let failure = Mutex<CommandFailure?>(nil)
}

/// Something told only the first time.
private final class Once: Sendable {
    private let done = Mutex(false)

    /// Whether this is the first call.
    func first() -> Bool {
        done.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

extension OperatorConsole {
    /// The picture written last: a composition, or a photo; `nil` before any.
    var lastPicture: Delivered? {
        lastWritten.picture.withLock { $0 }
    }

    /// Why an event's JSON line could not be written, once one could not.
    var readerFailure: CommandFailure? {
        lostReader.failure.withLock { $0 }
    }
}
