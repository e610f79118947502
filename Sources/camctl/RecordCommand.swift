import CameraKit
import CameraOperator
import Formatting
import FoundationEssentials
import Glibc

/// `camctl record`: records a movie into the library until stopped, or for `--duration` seconds,
/// or up to `--max-size` megabytes; photos can be taken meanwhile.
struct RecordCommand: Subcommand {
    static let name = "record"
    static let synopsis = """
        camctl record   [--device D] [--duration SECONDS] [--max-size MB] [--bitrate KBPS] [--audio none|default|test|NAME]
                        [--resolution WxH[@FPS]]
                        [--output PATH] [--library DIR] [--no-photos] [--sink ELEMENT] [--fullscreen] [--json] [--wait-for-device] [--print-pipeline]
                        [--filter NAME] [--zoom N] [--aspect W:H] [--rotate 0|90|180|270] [...image options]
        """
    static let summary = "record a movie (H.264 in MP4) into the library; photos can be taken meanwhile"
    static let help = """
        Records the camera's picture, with its filters, zoom and framing, as H.264 in an MP4 file in the
        library (--library DIR, else $CAMCTL_LIBRARY, else ~/Pictures/camctl), until q, SIGUSR2 or
        Ctrl-C (which exits 130 once the movie is kept), or for --duration seconds, or until the file
        nears --max-size megabytes. The movie's path is printed once it is kept (--json: its JSON
        object, "kind": "movie"), with a thumbnail of its first frame. SIGUSR1, space or Enter takes a
        photo meanwhile; m pauses and resumes the recording (the movie has no gap). --bitrate sets the
        H.264 rate (by default about 1/8 bit a pixel: 7.8 Mbit/s at 1080p30). --audio records sound as
        AAC: default is the system's microphone, NAME one of `camctl devices --microphones`, test a
        440 Hz tone; by default a camera of the system gets the default microphone when there is one,
        and the test camera and files record none. The file is written in
        fragments of a second: a recording cut by a kill, a crash or a power cut is kept as a movie up
        to its last whole fragment the next time the library is opened; a disk that fills ends the
        recording, keeps what was written whole, and exits 74. --output copies the movie, once kept,
        to a path (as cp does: a file there is replaced whole) or - for standard output. Photos taken
        meanwhile go into the library. --sink shows a preview meanwhile.
        """ + "\n" + PhotoTaking.help + "\n" + KeyTable.help + "\n" + ImageOptions.help
    static let options = PreviewWindowOptions.options + SessionOptions.options + [
        .init(name: "--output", value: "PATH", short: "-o"), .init(name: "--library", value: "DIR"), .init(name: "--no-library", value: nil),
        .init(name: "--json", value: nil),
        .init(name: "--duration", value: "SECONDS"), .init(name: "--max-size", value: "MB"),
        .init(name: "--bitrate", value: "KBPS"), .init(name: "--audio", value: "SOURCE"), PhotoTaking.option,
    ]

    let session: SessionOptions
    let arguments: ParsedArguments
    let settings: MovieSettings
    /// What --audio asked for: `nil` when it was not given.
    let audio: String?
    let window: PreviewWindowOptions
    /// Where the movie is copied once kept.
    let copy: String?
    let photos: PhotoTaking

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals([])
        self.arguments = arguments
        session = try SessionOptions(arguments)
        if arguments.flag("--no-library") {
            throw CommandFailure("movies are recorded into the library; leave out --no-library", exitCode: .usage)
        }
        let megabytes = try arguments.integer("--max-size", in: 1...1_000_000)
        settings = MovieSettings(maximumDuration: try arguments.seconds("--duration", in: 0.1...31_536_000),
                                 maximumBytes: megabytes.map { $0 * 1_000_000 },
                                 kilobitsPerSecond: try arguments.integer("--bitrate", in: 100...200_000))
        audio = arguments.string("--audio")
        if audio?.isEmpty == true { throw CommandFailure("--audio needs none, default, test or a microphone's name", exitCode: .usage) }
        window = PreviewWindowOptions(arguments, defaultSink: nil)
        copy = arguments.string("--output")
        photos = PhotoTaking(arguments)
        if copy == "-", arguments.flag("--json") {
            throw CommandFailure("--output - and --json cannot both use standard output", exitCode: .usage)
        }
    }

    func run() async throws(CommandFailure) {
        let controls = ControlInbox.shared.claimed()
        try window.check()
        if let copy, copy != "-" { try PhotoSaving.checkWritable(copy) }
        let saving = try await PhotoSaving.opened(library: PhotoSaving.library(arguments), output: nil, printsJSON: arguments.flag("--json"),
                                                  photoCount: nil)
        let camera = try await session.camera(controls: controls)
        var configuration = session.configuration(for: camera)
        configuration.movies = true
        configuration.capturesPhotos = photos.isOn
        configuration.preview = window.preview(PreviewConfiguration(showsShutter: true))
        let captureSession = CaptureSession(configuration: configuration)
        controls.listenToKeys(of: captureSession)
        let operating = OperatorConsole(session: captureSession, device: camera, saving: saving)
        try await session.start(captureSession)
        var settings = settings
        settings.audio = await Self.audio(audio, for: camera)
        do {
            try await operating.startRecording(settings, copyTo: copy) { controls.post(.finish) }
        } catch {
            await captureSession.stop()
            throw error
        }
        Console.progress("q or SIGUSR2 stops, " + (photos.isOn ? "space or SIGUSR1 takes a photo, " : "") + "m pauses")
        var interrupted = false
        loop: while true {
            switch await controls.next(within: nil) {
            case nil, .finish?, .toggleRecording?:
                break loop
            case .interrupt?:
                interrupted = true
                break loop
            case .captureNow? where !photos.isOn:
                Console.note(PhotoTaking.refusal)
            case .captureNow?:
                _ = try await perform(.takePhoto(PhotoSettings()), with: operating, session: captureSession)
            case let key?:
                try await operating.act(on: key)
            }
        }
        try await operating.end(captureSession)
        if interrupted { throw CommandFailure("interrupted; the movie is kept", exitCode: .interrupted) }
    }

    /// The sound --audio names (`none`, `default`, `test`, a microphone), or what a camera gets by default.
    static func audio(_ option: String?, for camera: CaptureDevice) async -> MovieAudio? {
        if let option { return MovieAudio.named(word: option) }
        return await MovieAudio.automatic(for: camera)
    }

    /// Does what the action asks; a failure stops the session first.
    private func perform(_ action: Action, with operating: OperatorConsole, session: CaptureSession) async throws(CommandFailure) -> Outcome? {
        do {
            return try await operating.perform(action)
        } catch {
            await session.stop()
            throw error
        }
    }
}
