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
        """ + "\n" + PreviewWindowOptions.help + "\n" + PicturePrinting.help + "\n" + KeyTable.help + "\n" + ReviewOptions.help + "\n" + ImageOptions.help
    /// The booth the help describes: the defaults every front end shares.
    private static let plan = BoothPlan()

    private static func seconds(_ value: Double) -> String {
        String(printf: "%g", value)
    }

    static let options = SessionOptions.options + PhotoSaving.options + PhotoOptions.options + ReviewOptions.options + PicturePrinting.options + PreviewWindowOptions.options + [
        .init(name: "--shots", value: "N"), .init(name: "--countdown", value: "SECONDS"),
        .init(name: "--layout", value: "2x2|1x4"), .init(name: "--template", value: "FILE"), .init(name: "--no-last-photo", value: nil),
        .init(name: "--show-result", value: "SECONDS"), .init(name: "--show-shots", value: "SECONDS"), .init(name: "--no-retake", value: nil),
        .init(name: "--animation", value: "mp4|gif|boomerang"),
    ]

    enum Layout: String, CaseIterable {
        case grid = "2x2", strip = "1x4"
    }

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
            layout = (try arguments.choice("--layout", as: Layout.self) ?? .grid) == .grid ? .standard : .strip
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
        let saving = try PhotoSaving(library: PhotoSaving.library(arguments), output: nil, printsJSON: arguments.flag("--json"),
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
        try await session.start(captureSession)
        let booth = OperatorConsole(session: captureSession, device: camera, saving: saving, albums: ["booth"],
                                    compositionCopy: composedOutput)
        review.listen(controls, session: captureSession)
        var plan = BoothPlan()
        (plan.shots, plan.countdown, plan.layout) = (shots, countdown, layout)
        (plan.showShots, plan.showResult, plan.settings) = (showShots, showResult, settings)
        plan.review = review.plan
        plan.animation = animation
        plan.retakes = !arguments.flag("--no-retake")
        let (ending, outcome): (Control?, Outcome?)
        do throws(CommandFailure) {
            (ending, outcome) = try await booth.run(.booth(plan), controls: controls)
        } catch {
            await captureSession.stop()
            throw error
        }
        await captureSession.stop()
        if let clip = await booth.sessionOperator.lastAnimation {
            if arguments.flag("--json") { try Console.json(clip.record) } else { try Console.result(clip.path) }
        }
        if ending == .interrupt { throw CommandFailure.interrupted }
        try await booth.finishProcessing()
        if let printing, let composed = Self.composed(in: outcome) {
            try await printing.print(composed.item.data, keptAt: composed.path, title: "camctl booth \(composed.libraryPhoto?.id ?? 0)",
                                     json: arguments.flag("--json"))
        }
    }

    /// The composed picture a booth kept, if it kept one.
    private static func composed(in outcome: Outcome?) -> Delivered? {
        switch outcome {
        case .boothTaken(_, let composed)?, .kept(_, let composed, _)?: composed
        default: nil
        }
    }
}
