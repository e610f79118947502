import CameraKit
import CameraOperator
import CameraServer
import Foundation
import HTTPServer

/// `camctl serve`: the camera on the network: a web page, an HTTP API, the live picture and
/// snapshots, until Ctrl-C or SIGTERM.
struct ServeCommand: Subcommand {
    static let name = "serve"
    static let synopsis = """
        camctl serve    [--listen ADDR:PORT] [--device D] [--resolution WxH[@FPS]] [--library DIR] [--json]
        """
    static let summary = "serve the camera on the network: a web page, an HTTP API, the live picture"
    static let help = """
        Serves the camera over HTTP on --listen (127.0.0.1:8080 by default; 0.0.0.0:8080 for every
        address of this machine, [::]:8080 for IPv6): the page at /, the live picture at /stream.mjpg
        (MJPEG, encoded once for every viewer), a snapshot of the frame held now at /snapshot.jpg,
        and the JSON API under /api (README.md lists it). Photos go into the library. On any
        address but loopback every request but the page needs the access token, which is made on
        first use, kept in the library folder (serve-token, readable by its owner only) and
        printed then; open the page once with ?token=TOKEN. Ctrl-C or SIGTERM stops the server:
        streams end, a photo being taken is saved, and camctl exits 0.
        """ + "\n" + ImageOptions.help
    static let options = SessionOptions.options + [
        .init(name: "--listen", value: "ADDR:PORT"), .init(name: "--library", value: "DIR"), .init(name: "--json", value: nil),
    ]

    let session: SessionOptions
    let arguments: ParsedArguments
    let host: String
    let port: Int

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals([])
        self.arguments = arguments
        session = try SessionOptions(arguments)
        (host, port) = try Self.address(arguments.string("--listen") ?? "127.0.0.1:8080")
    }

    /// `ADDR:PORT`, `[IPv6]:PORT`, or `PORT` alone (on loopback).
    static func address(_ text: String) throws(CommandFailure) -> (host: String, port: Int) {
        let split = text.lastIndex(of: ":")
        let host = split.map { String(text[..<$0]) } ?? "127.0.0.1"
        let portText = split.map { String(text[text.index(after: $0)...]) } ?? text
        guard let port = Int(portText), (0...65535).contains(port), !host.isEmpty else {
            throw CommandFailure("--listen \(text) is not ADDRESS:PORT, such as 127.0.0.1:8080 or 0.0.0.0:8080", exitCode: .usage)
        }
        return (host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host, port)
    }

    func run() async throws(CommandFailure) {
        let controls = ControlInbox.shared.claimed()
        let library = arguments.string("--library").map(PhotoSaving.Library.folder) ?? .standard
        let delivery = try PhotoSaving.delivery(library: library, output: nil, photoCount: nil)
        guard let folder = delivery.library?.folder else { throw CommandFailure("camctl serve needs a library", exitCode: .usage) }
        let access = try accessControl(folder: folder)
        let camera = try await session.camera(controls: controls)
        var configuration = session.configuration(for: camera)
        configuration.liveJPEG = LiveJPEGConfiguration()
        configuration.resumesAutomatically = true
        let captureSession = CaptureSession(configuration: configuration)
        try await session.start(captureSession)
        let server: CameraServer
        do {
            server = try CameraServer(session: captureSession, delivery: delivery, device: camera, library: folder,
                                      host: host, port: port, access: access)
        } catch let error as HTTPServerError {
            await captureSession.stop()
            throw CommandFailure("\(error.description); choose another with --listen", exitCode: .unavailable)
        } catch {
            await captureSession.stop()
            throw CommandFailure("the server could not start: \(error)", exitCode: .software)
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        let url = "http://\(shown):\(server.port)/"
        if arguments.flag("--json") {
            try Console.json(["event": "serving", "url": url, "port": server.port, "token_required": access.token != nil])
        } else {
            try Console.result("serving \(camera.name) at \(url)")
        }
        while true {
            switch await controls.next(within: nil) {
            case .interrupt?, .finish?, nil:
                await server.stop()
                return
            default:
                continue
            }
        }
    }

    /// Loopback needs no token; any other address the library's, printed when it is made.
    private func accessControl(folder: String) throws(CommandFailure) -> AccessControl {
        guard !AccessControl.isLoopback(host) else { return .loopback }
        do {
            let (token, created) = try AccessControl.token(in: folder)
            if created {
                Console.note("the access token for other machines is \(token) (kept in \(folder)/serve-token): open the page once with ?token=\(token)")
            } else {
                Console.note("other machines need the access token kept in \(folder)/serve-token: open the page once with ?token=TOKEN")
            }
            return AccessControl(token: token)
        } catch {
            throw CommandFailure(error.description, exitCode: .ioError)
        }
    }
}
