import CameraKit
import CameraOperator
import FoundationEssentials
import Glibc
import OperatorWire
import Synchronization

/// `camctl preview`: the camera in a window (or any sink), with keys for photos, switching
/// cameras and pausing, until `q`, Ctrl-C, `--duration` or the window is closed.
struct PreviewCommand: Subcommand {
    static let name = "preview"
    static let synopsis = """
        camctl preview  [--device D] [--sink ELEMENT] [--fullscreen] [--resolution WxH[@FPS]] [--duration SECONDS] [--print-pipeline]
                        [--library DIR | --no-library --output PATH] [--no-photos] [--json] [--wait-for-device]
        """
    static let summary = "show the camera in a window; keys take photos, switch cameras, pause"
    static let help = """
        Opens the preview in --sink (autovideosink by default; ximagesink, xvimagesink, kmssink,
        fakesink or a gst-launch description such as "ximagesink display=:1"). The keys below act: a
        photo goes into the library, a movie too (as camctl record makes it; its path is printed once
        kept), and q quits, keeping a movie being recorded. --duration ends the
        preview by itself. Each photo's thumbnail shows in the lower left corner until the next
        (--no-last-photo: not). A camera unplugged while previewing is waited for and resumed.
        """ + "\n" + PhotoTaking.help + "\n" + PreviewWindowOptions.help + "\n" + KeyTable.help + "\n" + ImageOptions.help
    static let options = SessionOptions.options + PhotoSaving.options + PreviewWindowOptions.options + [
        .init(name: "--duration", value: "SECONDS"), .init(name: "--no-last-photo", value: nil), PhotoTaking.option,
    ]

    let session: SessionOptions
    let arguments: ParsedArguments
    let window: PreviewWindowOptions
    let duration: Double?
    let photos: PhotoTaking

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals([])
        self.arguments = arguments
        session = try SessionOptions(arguments)
        window = PreviewWindowOptions(arguments, defaultSink: "autovideosink")
        duration = try arguments.seconds("--duration", in: 0...31_536_000)
        photos = PhotoTaking(arguments)
    }

    func run() async throws(CommandFailure) {
        let controls = ControlInbox.shared.claimed()
        try window.check()
        let saving = try await PhotoSaving.opened(arguments, photoCount: nil)
        let camera = try await session.camera(controls: controls)
        var configuration = session.configuration(for: camera)
        configuration.preview = window.preview(PreviewConfiguration(showsLastPhoto: !arguments.flag("--no-last-photo"), showsShutter: true))
        configuration.resumesAutomatically = true
        configuration.movies = true
        configuration.capturesPhotos = photos.isOn
        let captureSession = CaptureSession(configuration: configuration)
        // The operator tells what happens to the camera from its start on.
        let operating = OperatorConsole(session: captureSession, device: camera, saving: saving, endingOnLostReader: controls)
        let failure = FailureRecord()
        let watcher = watchEnding(operating.sessionOperator.events(), controls: controls, failure: failure)
        defer { watcher.cancel() }
        controls.listenToKeys(of: captureSession)
        try await session.start(captureSession)
        Console.progress("previewing \(camera.name) in \(window.sink ?? ""); \(photos.keyHint)r: movie, m: pause the movie, s: next camera, p: pause, "
            + "f: next filter, +/-: zoom, q: quit")

        let end = duration.map { ContinuousClock.now + .milliseconds(Int($0 * 1000)) }
        loop: while true {
            let control = await controls.next(within: end.map { $0 - ContinuousClock.now })
            switch control {
            case nil, .finish?:
                break loop
            case .interrupt?:
                do {
                    try await operating.stopAndKeepMovie()
                } catch {
                    Console.note(error.message)  // told before the interrupt's own exit
                }
                await captureSession.stop()
                throw CommandFailure.interrupted
            case .captureNow? where !photos.isOn:
                Console.note(PhotoTaking.refusal)
            case .captureNow?:
                do {
                    try await operating.perform(.takePhoto(PhotoSettings()), notingCameraFailure: "no photo")
                } catch {
                    await captureSession.stop()
                    throw error
                }
            case let key?:
                try await operating.act(on: key)
            }
        }
        try await operating.end(captureSession)
        if let error = failure.error.withLock({ $0 }) ?? operating.readerFailure { throw error }
    }

    /// The error that ended the session, written by the event reporter.
    final class FailureRecord: Sendable {
        let error = Mutex<CommandFailure?>(nil)
    }

    /// Ends the preview when the session stops by itself (the window closed) or fails; what
    /// happens to it is told by the operator's console.
    private func watchEnding(_ events: AsyncStream<OperatorEvent>, controls: ControlInbox, failure: FailureRecord) -> Task<Void, Never> {
        Task {
            for await event in events {
                switch event {
                case .failed(let error):
                    failure.error.withLock { $0 = CommandFailure(error) }
                    controls.post(.finish)
                case .stopped:
                    controls.post(.finish)
                default:
                    continue
                }
            }
        }
    }
}
