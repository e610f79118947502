import CameraKit
import CameraOperator
import Formatting
import FoundationEssentials
import Glibc
import OperatorWire
import PipelineScript
import Printing

/// Carries out a description file's steps on a running session.
struct ScriptRunner {
    let session: CaptureSession
    let operating: OperatorConsole
    let controls: ControlInbox
    let settings: PhotoSettings
    let printsJSON: Bool
    /// How long a `review` without a timeout of its own waits (`nil`: for ever).
    let reviewTimeout: Double?

    init(session: CaptureSession, camera: CaptureDevice, saving: sending PhotoSaving, controls: ControlInbox,
         settings: PhotoSettings, printsJSON: Bool, reviewTimeout: Double?) {
        operating = OperatorConsole(session: session, device: camera, saving: saving)
        (self.session, self.controls, self.settings, self.printsJSON) = (session, controls, settings, printsJSON)
        self.reviewTimeout = reviewTimeout
    }

    /// Why a run ends early.
    private struct Finished: Error {}

    /// Runs the steps. In a script with a `review`, photos are held from the start and after each
    /// review until the next; those still held when the run ends, or is ended, are kept.
    func run(_ script: Script) async throws(CommandFailure) {
        if script.reviews { try await operating.perform(.holdForReview) }
        var failure: CommandFailure?
        do {
            try await perform(script.steps)
        } catch is Finished {
        } catch let error as CommandFailure {
            failure = error
        } catch {
            failure = CommandFailure("the run stopped: \(error)", exitCode: .software)
        }
        if script.reviews { try await operating.keepHeld() }
        do {
            try await operating.stopAndKeepMovie()  // a movie started and not stopped ends with the run
        } catch {
            failure = failure ?? error
        }
        if let failure { throw failure }
    }

    private func perform(_ steps: [Script.Step]) async throws {
        for step in steps {
            try await check(controls.next())
            switch step {
            case .countdown(let seconds):
                try await check(await operating.countDown(seconds, controls: controls))
            case .capture(let options):
                var settings = settings
                if let codec = options.codec { settings.codec = codec == "hevc" ? .hevc : .jpeg }
                if let quality = options.quality { settings.quality = quality }
                if let rotation = options.rotation { settings.rotation = rotation }
                try await operating.perform(.takePhoto(settings))
            case .burst(let count):
                try await interruptible { try await operating.perform(.burst(count: count, settings)) }
            case .wait(let seconds):
                try await check(await pause(seconds, controls: controls))
            case .repeatBlock(let count, let inner):
                for _ in 0..<count { try await perform(inner) }
            case .timelapse(let every, let count):
                for index in 0..<count {
                    let start = ContinuousClock.now
                    try await operating.perform(.takePhoto(settings))
                    guard index < count - 1 else { break }
                    try await check(await pause(until: start + .seconds(every), controls: controls))
                }
            case .switchCamera:
                try await operating.perform(.nextCamera)
            case .pausePreview:
                try await operating.perform(.pausePreview)
            case .resumePreview:
                try await operating.perform(.resumePreview)
            case .compose(let layout):
                let shots: ShotLayout
                switch layout {
                case .strip: shots = .strip
                case .grid: shots = .standard
                case .template(let path):
                    do {
                        shots = .template(try TemplateFile(path: path))
                    } catch {
                        throw CommandFailure(error)
                    }
                }
                try await operating.perform(.compose(layout: shots, quality: settings.quality, albums: [BoothPlan.album]))
            case .review(let timeout):
                if case .held(let count)? = try await operating.perform(.holdForReview), count > 0 {
                    let waits = timeout.map { $0 > 0 ? $0 : nil } ?? reviewTimeout
                    try await check(await operating.review(ReviewPlan(timeout: waits, hint: ReviewOptions.hint), controls: controls))
                    try await operating.perform(.holdForReview)
                }
            case .print(let text):
                // A param set from the command line may carry escape sequences; the terminal never sees them.
                let message = text.terminalSafe
                if printsJSON { try Console.json(EventRecord.print(message: message)) } else { try Console.result(message) }
            case .printout(let options):
                guard let picture = operating.lastPicture, picture.path != "-" else {
                    throw CommandFailure("printout has no picture to print: no photo or composition was kept before it; "
                        + "put it after a capture or compose step", exitCode: .usage)
                }
                let printing = PicturePrinting(printer: options.printer.flatMap(PicturePrinting.printer(named:)),
                                               options: PrintOptions(copies: options.copies, media: options.media),
                                               cutsStrips: options.cutsStrips)
                try await printing.print(picture.item.data, keptAt: picture.path,
                                         title: "camctl picture \(picture.libraryPhoto?.id ?? 0)", through: operating.sessionOperator)
            case .cameraSetting(let name, let value):
                do {
                    _ = try await session.setCameraSetting(name, to: value)
                } catch {
                    throw CommandFailure(error)
                }
            case .image(let change):
                try await operating.perform(.changeImage(try await session.configuration.image.applying(change)))
            case .record(let seconds):
                try await operating.startRecording(await operating.movieSettings(maximumDuration: seconds))
                while operating.isWatchingMovie {  // keys and signals act meanwhile
                    try await check(await controls.next(within: .milliseconds(100)))
                }
                try await operating.stopAndKeepMovie()
            case .startRecording:
                try await operating.startRecording(await operating.movieSettings())
            case .stopRecording:
                try await operating.stopAndKeepMovie()
            }
        }
    }

    /// Runs a step that Ctrl-C or SIGTERM may cut short (a burst): then the step takes nothing
    /// more, what it took is kept, and the run stops (exit 130). Other controls meanwhile do their
    /// job, or wait for the step's end (q, SIGUSR2).
    private func interruptible(_ step: @escaping @Sendable () async throws -> Void) async throws {
        let running = Task { try await step() }
        let watching = Task { [controls, operating] () -> Control? in
            while let control = await controls.next(within: nil) {
                switch control {
                case .interrupt:
                    running.cancel()
                    return control
                case .finish: return control
                default: await operating.actNoting(on: control)
                }
            }
            return nil
        }
        let result = await running.result
        watching.cancel()
        let control = await watching.value
        try result.get()
        try await check(control)
    }

    /// Acts on a control between steps: Ctrl-C stops now (exit 130), q or SIGUSR2 ends the run, other keys do their job.
    private func check(_ control: Control?) async throws {
        switch control {
        case .interrupt?: throw CommandFailure.interrupted
        case .finish?: throw Finished()
        case let key?: try await operating.act(on: key)  // the shutter between steps does nothing
        case nil: break
        }
    }
}
