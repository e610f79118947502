/// The exit codes camctl uses, from sysexits(3), as documented in the README.
enum ExitCode: Int32 {
    case success = 0
    /// The command line is wrong.
    case usage = 64
    /// Input data (a description file, an image) is malformed.
    case dataError = 65
    /// No camera, or the camera cannot give what was asked.
    case unavailable = 69
    /// An internal pipeline or sink failure.
    case software = 70
    /// An output file cannot be created.
    case cannotCreate = 73
    /// Reading or writing failed (a full disk).
    case ioError = 74
    /// Permission denied.
    case noPermission = 77
    /// Interrupted by the user.
    case interrupted = 130
}

extension ExitCode {
    /// Every code camctl exits with, and what it means, for help and the manual page.
    static let documented: [(code: ExitCode, meaning: String)] = [
        (.success, "success"),
        (.usage, "usage error"),
        (.dataError, "bad input data (a description file, an image)"),
        (.unavailable, "camera unavailable (none, not found, busy, no such format)"),
        (.software, "pipeline or sink failure (or no display for the automatic sink)"),
        (.cannotCreate, "cannot create an output file"),
        (.ioError, "I/O error (disk full, standard output refused)"),
        (.noPermission, "permission denied"),
        (.interrupted, "interrupted"),
    ]
}

/// A failure that ends the program: one sentence for the user and an exit code.
struct CommandFailure: Error {
    let message: String
    let exitCode: ExitCode
    /// GStreamer's debug text behind the failure, printed with `--verbose`.
    var details: String?

    init(_ message: String, exitCode: ExitCode, details: String? = nil) {
        self.message = message
        self.exitCode = exitCode
        self.details = details
    }
}
