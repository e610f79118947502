import Foundation
import GStreamer

/// A parsed command line.
enum Command: Equatable {
    case capture(CaptureOptions)
    case version
    case help

    static let usage = """
        usage: camctl capture [--device test[:PATTERN]] [--output PATH] [--resolution WxH] [--quality 1-100]
               camctl --version
               camctl help

        capture    grabs one frame from the camera and writes it as a JPEG file
                   (default output: photo.jpg; the built-in test camera is --device test)

        exit codes: 0 success, 64 usage error, 69 camera unavailable, 70 pipeline failure,
                    73 cannot create the output file, 74 I/O error, 77 permission denied
        """

    /// Parses the arguments after the program name; throws a usage failure with a precise message.
    static func parse(_ arguments: [String]) throws(CommandFailure) -> Command {
        guard let verb = arguments.first else { return .help }
        switch verb {
        case "--version", "version": return .version
        case "help", "--help", "-h": return .help
        case "capture": return .capture(try CaptureOptions.parse(Array(arguments.dropFirst())))
        default:
            throw CommandFailure("unknown command \"\(verb)\"; run camctl help to see the commands", exitCode: .usage)
        }
    }

    func run() async throws(CommandFailure) {
        switch self {
        case .version:
            print("camctl \(camctlVersion) (GStreamer \(GStreamerRuntime.version))")
        case .help:
            print(Command.usage)
        case .capture(let options):
            try await StillCapture(options).run()
        }
    }
}

let camctlVersion = "0.1.0"
