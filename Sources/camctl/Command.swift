import Formatting
import FoundationEssentials
import Glibc
import GStreamer
import PipelineScript

/// camctl's commands: each reads its own options and runs.
enum Command {
    /// Every command, in the order help lists them.
    static var all: [any Subcommand.Type] {
        [DevicesCommand.self, FiltersCommand.self, PreviewCommand.self, CaptureCommand.self, RecordCommand.self, BoothCommand.self, RunCommand.self, ServeCommand.self, FleetCommand.self,
         CameraSettingsCommand.self, LibraryCommand.self, OverlayCommand.self, CompletionsCommand.self]
    }

    /// Parses the arguments after the program name into a command ready to run.
    static func parse(_ arguments: [String]) throws(CommandFailure) -> Runnable {
        guard let verb = arguments.first else { return Help(topic: nil) }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "--version", "version": return Version()
        case "help", "--help", "-h":
            if rest == ["--man"] { return Manual() }
            return Help(topic: rest.first)
        default: break
        }
        guard let command = all.first(where: { $0.name == verb }) else {
            let suggestion = Spelling.closest(to: verb, among: all.map { $0.name } + ["help"]).map { "; did you mean \($0)?" }
                ?? "; run camctl help to see the commands"
            throw CommandFailure("unknown command \"\(verb)\"\(suggestion)", exitCode: .usage)
        }
        if rest.contains("--help") || rest.contains("-h") { return Help(topic: verb) }
        return try command.parse(rest)
    }

    /// The exit codes, as help lists them after every command's options.
    static let exitCodes: String = {
        var lines = ["exit codes:"]
        for (code, meaning) in ExitCode.documented {
            let entry = " \(code.rawValue) \(meaning),"
            if lines[lines.count - 1].count + entry.count > 100 { lines.append(String(repeating: " ", count: 11)) }
            lines[lines.count - 1] += entry
        }
        return String(lines.joined(separator: "\n").dropLast())
    }()
}

/// A parsed command, ready to run.
protocol Runnable {
    func run() async throws(CommandFailure)
}

/// A command of camctl: its name, its help, the options it accepts, and how it reads them.
protocol Subcommand: Runnable {
    static var name: String { get }
    static var synopsis: String { get }
    /// One line for `camctl help`.
    static var summary: String { get }
    /// The paragraph for `camctl help COMMAND`.
    static var help: String { get }
    static var options: [ParsedArguments.Option] { get }
    /// The words the command takes besides options (`list`, `show`, … of `library`), for completions.
    static var words: [String] { get }
    init(_ arguments: ParsedArguments) throws(CommandFailure)
}

extension Subcommand {
    static var words: [String] { [] }

    /// Reads the command's arguments (after its name).
    static func parse(_ arguments: [String]) throws(CommandFailure) -> Runnable {
        try Self(ParsedArguments(arguments, command: name, options: options))
    }
}

/// `camctl --version`.
struct Version: Runnable {
    func run() async throws(CommandFailure) {
        try Console.result("camctl \(camctlVersion) (GStreamer \(GStreamerRuntime.version))")
    }
}

/// `camctl help --man`: the manual page in troff, for `man -l -` or to install as camctl.1.
struct Manual: Runnable {
    func run() async throws(CommandFailure) {
        try Console.result(String(ManualPage.troff.dropLast()))
    }
}

/// `camctl help [COMMAND]` and `camctl COMMAND --help`.
struct Help: Runnable {
    let topic: String?

    func run() async throws(CommandFailure) {
        guard let topic else {
            let width = Command.all.map { $0.name.count }.max() ?? 0
            let commands = Command.all.map { "  \($0.name.padded(to: width))  \($0.summary)" }
            try Console.result("""
                camctl: cameras on Linux through GStreamer

                usage: camctl COMMAND [OPTIONS]

                \(commands.joined(separator: "\n"))
                  help     camctl help COMMAND shows a command's options; camctl help --man, the manual page

                --device D names a camera: test or test:PATTERN (the built-in test camera), file:PATH (an
                image or video used as a camera), gphoto2:PORT or gphoto2:MODEL (a DSLR or mirrorless camera:
                its live view the picture, its own shutter the photos, kept on its card unless
                --delete-from-card), a device path such as /dev/video0, front or back (by the position the
                camera reports), or part of a camera's name; the default is the first camera attached.
                camctl --version prints the version.

                \(Command.exitCodes)
                """)
            return
        }
        guard let command = Command.all.first(where: { $0.name == topic }) else {
            throw CommandFailure("there is no command \"\(topic)\"; run camctl help to see the commands", exitCode: .usage)
        }
        try Console.result("usage: " + command.synopsis.trimmed() + "\n\n" + command.help + "\n\n" + Command.exitCodes)
    }
}

let camctlVersion = "0.2.0"
