import FileSystem
import Formatting
import FoundationEssentials
import Glibc
import OperatorWire
import Synchronization

/// Where camctl writes: results on standard output (paths, JSON, tables), progress on standard
/// error only when a person is watching it, and nothing else.
enum Console {
    /// Whether standard input is a terminal a person types into.
    static let inputIsTerminal = isatty(STDIN_FILENO) == 1
    /// Whether progress (countdowns, burst counts) is shown: only to a terminal.
    static let showsProgress = isatty(STDERR_FILENO) == 1

    /// A result line on standard output.
    ///
    /// - Throws: exit code 74 when standard output refuses it (a full disk, a closed pipe).
    static func result(_ line: String) throws(CommandFailure) {
        try resultBytes(Array((shown(line) + "\n").utf8))
    }

    /// One record, as JSON on one line of standard output.
    static func json(_ record: some Encodable) throws(CommandFailure) {
        try resultBytes(WireJSON.bytes(record) + [0x0A])
    }

    private static func resultBytes(_ bytes: [UInt8]) throws(CommandFailure) {
        endProgressLine()  // a result never lands after a countdown's text on the same line
        let failure = bytes.withUnsafeBytes { DurableFile.writeAll($0, to: STDOUT_FILENO) }
        guard failure != 0 else { return }
        let reason = failure == EPIPE ? "its reader went away" : String(cString: strerror(failure))
        throw CommandFailure("standard output could not be written (\(reason)); whatever was saved stays saved", exitCode: .ioError)
    }

    /// Raw bytes on standard output (`--output -`).
    /// Returns false when they could not all be written (the reader went away).
    @discardableResult
    static func bytes(_ data: [UInt8]) -> Bool {
        writeAll(data, to: STDOUT_FILENO)
    }

    /// A progress line on standard error, when it is a terminal; `replacing` rewrites the current line.
    static func progress(_ text: String, replacing: Bool = false) {
        guard showsProgress else { return }
        let text = sentence(text)
        if replacing {
            rewriting.store(true, ordering: .relaxed)
            write("\r\u{1B}[K" + text, to: STDERR_FILENO)
        } else {
            endProgressLine()
            write(text + "\n", to: STDERR_FILENO)
        }
    }

    /// Ends a line that progress was rewriting (a countdown), so what is written next starts a
    /// line of its own; nothing when none is.
    static func endProgressLine() {
        guard showsProgress, rewriting.exchange(false, ordering: .relaxed) else { return }
        write("\r\u{1B}[K", to: STDERR_FILENO)
    }

    /// Whether the terminal's last line is one progress rewrites in place.
    private static let rewriting = Atomic(false)

    /// A note on standard error that is not a failure (a library repaired on opening).
    static func note(_ text: String) {
        endProgressLine()
        write("camctl: \(sentence(text))\n", to: STDERR_FILENO)
    }

    /// Text on standard error, its lines as they are (a pipeline, a list of mistakes).
    static func standardError(_ text: String) {
        write(shown(text), to: STDERR_FILENO)
    }

    /// What the terminal is shown of text that may hold words camctl did not write (a printer's
    /// message, a node's status, a photo's device, a file's name): each line without control
    /// characters or reordering marks, so none can move the cursor, rewrite the screen or fake a line.
    /// The one path every line camctl prints goes through.
    static func shown(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(\.terminalSafe).joined(separator: "\n")
    }

    /// A sentence as a note shows it: one line.
    static func sentence(_ text: String) -> String {
        text.terminalSafe
    }

    private static func write(_ text: String, to descriptor: Int32) {
        writeAll(Array(text.utf8), to: descriptor)
    }

    /// Writes everything; false when the descriptor refused.
    @discardableResult
    private static func writeAll(_ data: [UInt8], to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { DurableFile.writeAll($0, to: descriptor) == 0 }
    }
}
