import CameraKit
import CameraOperator
import FoundationEssentials
import Glibc

/// `camctl capture`: takes one or more photos, with a countdown before each and an interval
/// between them, into the library and wherever `--output` says.
struct CaptureCommand: Subcommand {
    static let name = "capture"
    static let synopsis = """
        camctl capture  [--device D] [--jpeg | --hevc [--now]] [--quality 1-100] [--count N] [--countdown SECONDS]
                        [--interval SECONDS] [--resolution WxH] [--output PATH] [--library DIR | --no-library]
                        [--flash off|on|auto] [--prioritize speed|balanced|quality] [--json] [--print-pipeline]
                        [--sink ELEMENT] [--fullscreen] [--latest PATH] [--exec CMD] [--metadata FILE] [--wait-for-device]
                        [--heic-tiles] [--filter NAME] [--brightness N] [--contrast N] [--saturation N] [--hue N]
                        [--zoom N] [--zoom-center X,Y] [--aspect W:H] [--mirror preview|photos|both|none]
                        [--rotate 0|90|180|270] [--review] [--review-timeout SECONDS]
                        [--print [--printer NAME|URI] [--copies N] [--media SIZE]]
        """
    static let summary = "take photos into the library (and a copy at --output)"
    static let help = """
        Takes --count photos (1 by default). Before each, --countdown counts down in the terminal and,
        with --sink, on a preview window (which shows the last photo in a corner unless --no-last-photo);
        --interval waits between photos (a time-lapse). Each photo
        goes into the library (--library DIR, else $CAMCTL_LIBRARY, else ~/Pictures/camctl) unless
        --no-library; --output writes a copy to a path or a pattern (%d counter, %04d padded, %t time),
        or to standard output with -. Each photo's path is printed; --json prints one JSON object
        per photo instead. --latest keeps a symlink to the newest photo, --metadata writes a JSON
        sidecar per photo (a pattern, or - for standard output), --exec runs a shell command after
        each photo with CAMCTL_PHOTO and CAMCTL_ID set. SIGUSR1 takes the next photo at once,
        SIGUSR2 ends after the photo in flight; Ctrl-C stops and exits 130. --hevc writes HEIC (HEVC in
        a HEIF file, with a thumbnail and EXIF), about half the size of a JPEG of the same quality.
        --heic-tiles stores a HEIC as a grid of 512x512 tiles, as iPhones do, for decoders with HEVC
        level limits. With --review the preview shows (in --sink, autovideosink by default).
        """ + "\n" + PreviewWindowOptions.help + "\n" + PicturePrinting.help + "\n" + KeyTable.help + "\n" + PhotoOptions.help + "\n" + ReviewOptions.help + "\n" + ImageOptions.help
    static let options = SessionOptions.options + PhotoSaving.options + PhotoOptions.options + ReviewOptions.options + PicturePrinting.options + PreviewWindowOptions.options + [
        .init(name: "--count", value: "N", short: "-n"),
        .init(name: "--countdown", value: "SECONDS"),
        .init(name: "--interval", value: "SECONDS"),
        .init(name: "--flash", value: "off|on|auto"),
        .init(name: "--prioritize", value: "speed|balanced|quality"),
        .init(name: "--no-last-photo", value: nil),
        .init(name: "--heic-tiles", value: nil),
    ]

    let session: SessionOptions
    let arguments: ParsedArguments
    var settings = PhotoSettings()
    /// How many photos, the countdown and the interval: the operator's defaults where no option is given.
    var plan = CapturePlan()
    let window: PreviewWindowOptions
    let review: ReviewOptions
    /// `--print`: each photo kept is printed.
    let printing: PicturePrinting?

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals([])
        self.arguments = arguments
        session = try SessionOptions(arguments)
        settings = try PhotoOptions.settings(from: arguments)
        if arguments.flag("--heic-tiles") {
            guard settings.codec == .hevc else {
                throw CommandFailure("--heic-tiles needs --hevc", exitCode: .usage)
            }
            settings.usesHEVCTiles = true
        }
        settings.flashMode = try arguments.choice("--flash", as: PhotoSettings.FlashMode.self) ?? settings.flashMode
        settings.prioritization = try arguments.choice("--prioritize", as: PhotoSettings.QualityPrioritization.self) ?? settings.prioritization
        plan.count = try arguments.integer("--count", in: 1...100_000) ?? plan.count
        plan.countdown = try arguments.seconds("--countdown") ?? plan.countdown
        plan.interval = try arguments.seconds("--interval") ?? plan.interval
        review = try ReviewOptions(arguments)
        window = PreviewWindowOptions(arguments, defaultSink: review.isOn ? "autovideosink" : nil)
        printing = try PicturePrinting(arguments)
        if printing?.cutsStrips == true {
            throw CommandFailure("--cut-strips prints a booth's strip twice on a sheet to be cut in two; camctl booth --layout 1x4 makes strips",
                                 exitCode: .usage)
        }
    }

    func run() async throws(CommandFailure) {
        let controls = ControlInbox.shared.claimed()
        try window.check()
        let saving = try await PhotoSaving.opened(arguments, photoCount: plan.count)
        let camera = try await session.camera(controls: controls)
        var configuration = session.configuration(for: camera)
        configuration.preview = window.preview(PreviewConfiguration(showsText: plan.countdown > 0 || review.isOn,
                                                                    showsLastPhoto: !arguments.flag("--no-last-photo"),
                                                                    showsPictures: review.isOn, showsShutter: true))
        configuration.watchesCameras = plan.count > 1  // a single photo is over before a camera could come or go
        let captureSession = CaptureSession(configuration: configuration)
        // The photo's encoders start beside the camera, not after its first frame.
        captureSession.photoOutput.setPreparedPhotoSettings([settings])
        // Space cuts a countdown or an interval short; the other keys do what they do in every command.
        if plan.countdown > 0 || plan.interval > 0 { controls.listenToKeys(of: captureSession) }
        // The operator tells what happens to the camera from its start on.
        let operating = OperatorConsole(session: captureSession, device: camera, saving: saving)
        try await session.start(captureSession)
        review.listen(controls, session: captureSession)
        let kept: [Delivered]
        do {
            kept = try await takePhotos(with: operating, controls: controls)
        } catch {
            await captureSession.stop()
            throw error
        }
        await captureSession.stop()
        // Printed while the operator tells the jobs, before its events end; the photos are
        // finished whether or not they are printed.
        var printed: Result<Void, CommandFailure> = .success(())
        if let printing {
            do throws(CommandFailure) {
                for photo in kept {
                    try await printing.print(photo.item.data, keptAt: photo.path, title: "camctl photo \(photo.libraryPhoto?.id ?? 0)",
                                             through: operating.sessionOperator)
                }
            } catch {
                printed = .failure(error)
            }
        }
        try await operating.finishProcessing()
        try printed.get()
    }

    /// Takes the photos; returns those kept.
    private func takePhotos(with operating: OperatorConsole, controls: ControlInbox) async throws(CommandFailure) -> [Delivered] {
        var plan = plan
        (plan.review, plan.settings) = (review.plan, settings)
        let (ending, outcome) = try await operating.run(.capture(plan), controls: controls)
        if ending == .interrupt { throw CommandFailure.interrupted }
        switch outcome {
        case .photos(let shots)?, .kept(let shots, _, _)?: return shots.compactMap(\.delivered)
        default: return []
        }
    }
}
