import Foundation
import GStreamer

/// A parsed command line.
enum Command: Equatable {
    case capture(CaptureOptions)
    case version
    case help

    static let usage = """
        usage: camctl capture [--device D] [--output PATH] [--resolution WxH[@FPS]|photo|high|medium|low]
                              [--quality 1-100] [--jpeg|--hevc] [--flash off|on|auto]
                              [--prioritize speed|balanced|quality]
               camctl --version
               camctl help

        capture    takes one photo and writes it as a JPEG file with EXIF (default: photo.jpg)
                   --device: test, test:PATTERN, file:PATH, /dev/videoN or part of a camera's name;
                   the default is the first camera attached

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
