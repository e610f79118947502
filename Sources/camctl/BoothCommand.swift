import CameraKit
import CameraOperator
import Formatting
import FoundationEssentials
import Glibc
import OperatorWire

/// `camctl booth`: a photo booth ("four cuts"): a countdown on the preview before each shot, then the
/// shots composed into one picture.
struct BoothCommand: Subcommand {
    static let name = "booth"
    static let synopsis = """
        camctl booth    [--device D] [--shots N] [--countdown SECONDS] [--layout 2x2|1x4 | --template FILE] [--sink ELEMENT] [--fullscreen] [--output PATH]
                        [--library DIR | --no-library] [--jpeg | --hevc] [--quality 1-100] [--json] [--print-pipeline]
                        [--show-shots SECONDS] [--show-result SECONDS] [--no-retake] [--review] [--review-timeout SECONDS]
                        [--animation mp4|gif|boomerang] [--print [--printer NAME|URI] [--copies N] [--media SIZE] [--cut-strips]]
                        [--kiosk [--attract-line TEXT] [--attract-seconds SECONDS]]
        """
    static let summary = "the photo booth: countdown, shots, and one composed picture of them"
    static let help = """
        Shows the preview in --sink (autovideosink by default) and takes --shots photos (\(plan.shots)), each after
        a --countdown (\(seconds(plan.countdown)) seconds) drawn large on the preview and shown in the terminal. Space or Enter
        (or SIGUSR1) takes the shot at once and the countdown starts again for the next one; q ends
        early. After each shot, the layout with the shots so far in their places shows on the preview
        for --show-shots seconds (\(seconds(plan.showShots)); 0 for none), while a (or the line retake) takes that
        shot again, leaving nothing of it (--no-retake: no retakes, and the last shot is not shown
        before the result). Each shot goes into the library; then
        the shots are composed, with even margins, into a 2x2 grid or a 1x4 strip (--layout) of
        640-pixel-wide cells, or as a template places them (--template FILE: a JSON file of slots,
        background, frames and words, described in README.md; --shots is then its slots' count unless
        fewer are asked for), which goes into the library too and to --output when given, and shown on
        the preview for --show-result seconds (\(seconds(plan.showResult)); 0 for none; space or q ends it). Each path is printed
        (--json: one object each). Each shot's thumbnail shows in the preview's lower left corner
        until the next (--no-last-photo: not). With --review, nothing is saved until the composed
        picture, shown on the preview, is kept: the shots and the picture are kept or discarded
        together. --animation also keeps a short clip of the shots in the library, 640 pixels wide,
        for phones: mp4 shows them in turn (0.6 s each, three times), boomerang forwards then
        backwards (0.3 s each, four times), gif in turn as an animated GIF that loops (0.6 s each,
        256 colours chosen for the shots); its path is printed last.
        --kiosk runs a booth for guest after guest until q: between guests the preview is the attract
        screen, the booth album's newest \(attract.count) composed pictures in turn and then the camera,
        \(seconds(attract.seconds)) seconds each (--attract-seconds), under the line "\(attract.line)"
        (--attract-line TEXT says another); the shutter (Space, Enter, SIGUSR1, a push-button) starts the next guest's booth.
        Each guest's picture is printed (--print) while the attract screen shows.
        """ + "\n" + PreviewWindowOptions.help + "\n" + PicturePrinting.help + "\n" + KeyTable.help + "\n" + ReviewOptions.help + "\n" + ImageOptions.help
    /// The booth the help describes: the defaults every front end shares.
    private static let plan = BoothPlan()
    /// The attract screen the help describes.
    private static let attract = AttractPlan()

    private static func seconds(_ value: Double) -> String {
        String(printf: "%g", value)
    }

    static let options = SessionOptions.options + PhotoSaving.options + PhotoOptions.options + ReviewOptions.options + PicturePrinting.options + PreviewWindowOptions.options + [
        .init(name: "--shots", value: "N"), .init(name: "--countdown", value: "SECONDS"),
        .init(name: "--layout", value: "2x2|1x4"), .init(name: "--template", value: "FILE"), .init(name: "--no-last-photo", value: nil),
        .init(name: "--show-result", value: "SECONDS"), .init(name: "--show-shots", value: "SECONDS"), .init(name: "--no-retake", value: nil),
        .init(name: "--animation", value: "mp4|gif|boomerang"), .init(name: "--kiosk", value: nil), .init(name: "--attract-line", value: "TEXT"),
        .init(name: "--attract-seconds", value: "SECONDS"),
    ]

    let session: SessionOptions
    let arguments: ParsedArguments
    let shots: Int
    let countdown: Double
    /// How long the composed picture is shown on the preview before the booth ends.
    let showResult: Double
    /// How long the shots so far are shown in their places after each shot.
    let showShots: Double
    let review: ReviewOptions
    let layout: ShotLayout
    let window: PreviewWindowOptions
    let composedOutput: String?
    let settings: PhotoSettings
    let animation: ShotAnimation.Style?
    /// `--print`: the composed picture printed once kept.
    let printing: PicturePrinting?
    /// `--kiosk`: guest after guest, the attract screen between them.
    let attract: AttractPlan?

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals([])
        self.arguments = arguments
        session = try SessionOptions(arguments)
        let plan = BoothPlan()
        try arguments.refuseTogether("--layout", "--template")
        if let path = arguments.string("--template") {
            do {
                layout = .template(try TemplateFile(path: path))
            } catch {
                throw CommandFailure("--template: \(error.commandLineSentence)", exitCode: error.code == .unreadableFile ? .dataError : .usage)
            }
        } else {
            layout = try arguments.choice("--layout", as: ShotLayout.BuiltIn.self)?.layout ?? BoothPlan().layout
        }
        let places = layout.places
        shots = try arguments.integer("--shots", in: 1...(places ?? 16)) ?? places ?? plan.shots
        countdown = try arguments.seconds("--countdown", in: 0...3600) ?? plan.countdown
        showResult = try arguments.seconds("--show-result", in: 0...3600) ?? plan.showResult
        showShots = try arguments.seconds("--show-shots", in: 0...3600) ?? plan.showShots
        review = try ReviewOptions(arguments)
        window = PreviewWindowOptions(arguments, defaultSink: "autovideosink")
        composedOutput = arguments.string("--output")
        animation = try arguments.choice("--animation", as: ShotAnimation.Style.self)
        printing = try PicturePrinting(arguments)
        if printing?.cutsStrips == true, layout != .strip {
            throw CommandFailure("--cut-strips prints a strip twice on a sheet to be cut in two; use it with --layout 1x4", exitCode: .usage)
        }
        settings = try PhotoOptions.settings(from: arguments)
        attract = try Self.attract(arguments)
    }

    /// The attract screen `--kiosk`, `--attract-line` and `--attract-seconds` ask for, or `nil` for one guest.
    private static func attract(_ arguments: ParsedArguments) throws(CommandFailure) -> AttractPlan? {
        let line = arguments.string("--attract-line")
        guard arguments.flag("--kiosk") else {
            for option in ["--attract-line", "--attract-seconds"] where arguments.string(option) != nil {
                throw CommandFailure("\(option) goes with --kiosk", exitCode: .usage)
            }
            return nil
        }
        var plan = AttractPlan()
        plan.seconds = try arguments.seconds("--attract-seconds", in: 1...3600) ?? plan.seconds
        if let line {
            guard !line.trimmed().isEmpty else { throw CommandFailure("--attract-line needs the words inviting the next guest", exitCode: .usage) }
            plan.line = line
        }
        return plan
    }

    func run() async throws(CommandFailure) {
        let controls = ControlInbox.shared.claimed()
        // The shots go to the library only; --output is for the composed picture.
        try arguments.refuseTogether("--library", "--no-library")
        if PhotoSaving.library(arguments) == .none, animation != nil {
            throw CommandFailure("--animation keeps its clip in the library; leave out --no-library", exitCode: .usage)
        }
        if PhotoSaving.library(arguments) == .none, composedOutput == nil {
            throw CommandFailure("--no-library needs --output PATH for the composed picture, or the booth would keep nothing", exitCode: .usage)
        }
        try window.check()
        let saving = try await PhotoSaving.opened(library: PhotoSaving.library(arguments), output: nil, printsJSON: arguments.flag("--json"),
                                                  photoCount: shots)
        if let composedOutput { try PhotoSaving.checkWritable(composedOutput) }
        // The printer and its paper before anyone poses.
        try await printing?.checkBeforeShots()
        let camera = try await session.camera(controls: controls)
        var configuration = session.configuration(for: camera)
        configuration.preview = window.preview(PreviewConfiguration(showsText: true, showsLastPhoto: !arguments.flag("--no-last-photo"),
                                                                    showsPictures: showResult > 0 || showShots > 0 || review.isOn,
                                                                    showsShutter: true))
        let captureSession = CaptureSession(configuration: configuration)
        controls.listenToKeys(of: captureSession)
        let booth = OperatorConsole(session: captureSession, device: camera, saving: saving, albums: [BoothPlan.album],
                                    compositionCopy: composedOutput)
        try await session.start(captureSession)
        review.listen(controls, session: captureSession)
        var plan = BoothPlan()
        (plan.shots, plan.countdown, plan.layout) = (shots, countdown, layout)
        (plan.showShots, plan.showResult, plan.settings) = (showShots, showResult, settings)
        plan.review = review.plan
        plan.animation = animation
        plan.retakes = !arguments.flag("--no-retake")
        let ending: Control?, composed: Delivered?
        do throws(CommandFailure) {
            if let attract {
                (ending, composed) = (try await welcomeGuests(booth, plan: plan, attract: attract, controls: controls), nil)
            } else {
                let (ended, outcome) = try await booth.run(.booth(plan), controls: controls)
                (ending, composed) = (ended, Self.composed(in: outcome))
            }
        } catch {
            await captureSession.stop()
            throw error
        }
        await captureSession.stop()
        if attract == nil { _ = try await printClip(of: booth, after: nil) }
        if ending == .interrupt { throw CommandFailure.interrupted }
        // Printed while the operator tells the job, before its events end; the photos are
        // finished whether or not it is printed.
        var printed: Result<Void, CommandFailure> = .success(())
        if let printing, let composed {
            do throws(CommandFailure) {
                try await print(composed, on: printing, through: booth)
            } catch {
                printed = .failure(error)
            }
        }
        try await booth.finishProcessing()
        try printed.get()
    }

    /// Guest after guest until `q` or an interrupt, which is returned: the attract screen until
    /// the shutter, then a booth. Each guest's picture is printed while the next attract screen
    /// shows, one print after another; a print that fails is noted, and the booth goes on.
    private func welcomeGuests(_ booth: OperatorConsole, plan: BoothPlan, attract: AttractPlan,
                               controls: ControlInbox) async throws(CommandFailure) -> Control? {
        var printing: Task<Void, Never>?
        var clip: Int64?
        while true {
            let came = await booth.attract(attract, controls: controls)
            guard came == .captureNow else {
                if came != .interrupt { await printing?.value }
                return came
            }
            let ran: (ending: Control?, outcome: Outcome?)
            do {
                ran = try await booth.run(.booth(plan), controls: controls)
                clip = try await printClip(of: booth, after: clip)
            } catch {
                await printing?.value
                throw error
            }
            if ran.ending != .interrupt, let printer = self.printing, let composed = Self.composed(in: ran.outcome) {
                printing = Task { [printing, self] in
                    await printing?.value
                    do throws(CommandFailure) {
                        try await print(composed, on: printer, through: booth)
                    } catch {
                        Console.note(error.message)
                    }
                }
            }
            if let ending = ran.ending {
                if ending != .interrupt { await printing?.value }
                return ending
            }
        }
    }

    /// Prints the path (or JSON object) of the last booth's clip, unless it is the one with id
    /// `previous` (told already); returns the clip's id.
    private func printClip(of booth: OperatorConsole, after previous: Int64?) async throws(CommandFailure) -> Int64? {
        guard let clip = await booth.sessionOperator.lastAnimation, clip.id != previous else { return previous }
        if arguments.flag("--json") { try Console.json(clip.record) } else { try Console.result(clip.path) }
        return clip.id
    }

    /// Prints a booth's composed picture (`--print`) through its operator, and waits until it is printed.
    private func print(_ composed: Delivered, on printing: PicturePrinting, through booth: OperatorConsole) async throws(CommandFailure) {
        try await printing.print(composed.item.data, keptAt: composed.path, title: "camctl booth \(composed.libraryPhoto?.id ?? 0)",
                                 through: booth.sessionOperator)
    }

    /// The composed picture a booth kept, if it kept one.
    private static func composed(in outcome: Outcome?) -> Delivered? {
        switch outcome {
        case .boothTaken(_, let composed)?, .kept(_, let composed, _)?: composed
        default: nil
        }
    }
}
