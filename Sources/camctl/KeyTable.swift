/// The keys and signals every command that runs a camera reads, in one table: a key does the
/// same thing in every command, and the help and the manual page say so from here.
enum KeyTable {
    /// Keys (their bytes, and how the help names them) and what each asks.
    struct Entry {
        let bytes: [UInt8]
        let names: String
        let control: Control
        let meaning: String
    }

    static let keys: [Entry] = [
        Entry(bytes: Array(" \n\r".utf8), names: "Space, Enter", control: .captureNow,
              meaning: "take a photo; end a countdown or a picture shown; keep under review"),
        Entry(bytes: Array("kK".utf8), names: "k", control: .keep, meaning: "keep the picture under review"),
        Entry(bytes: Array("xX".utf8) + [0x7f, 0x08], names: "x, Backspace, Delete", control: .discard,
              meaning: "discard the picture under review, saving nothing"),
        Entry(bytes: Array("aA".utf8), names: "a", control: .retake, meaning: "take a booth's shot again while it is shown in its place"),
        Entry(bytes: Array("sS".utf8), names: "s", control: .switchCamera, meaning: "switch to the next camera"),
        Entry(bytes: Array("pP".utf8), names: "p", control: .togglePreview, meaning: "pause or resume the preview"),
        Entry(bytes: Array("rR".utf8), names: "r", control: .toggleRecording,
              meaning: "start or stop a movie (stopping record's movie ends record)"),
        Entry(bytes: Array("mM".utf8), names: "m", control: .toggleMoviePause, meaning: "pause or resume the movie being recorded"),
        Entry(bytes: Array("fF".utf8), names: "f", control: .nextFilter, meaning: "the next filter"),
        Entry(bytes: Array("+=".utf8), names: "+", control: .zoom(in: true), meaning: "zoom in"),
        Entry(bytes: Array("-_".utf8), names: "-", control: .zoom(in: false), meaning: "zoom out"),
        Entry(bytes: Array("qQ".utf8), names: "q", control: .finish, meaning: "end after the photo in hand, keeping everything"),
    ]

    /// The signals, and what each asks.
    static let signals: [(names: String, control: Control)] = [
        ("SIGUSR1", .captureNow), ("SIGUSR2", .finish), ("SIGINT (Ctrl-C), SIGTERM", .interrupt),
    ]

    /// The control a key's byte asks for, if any.
    static func control(for byte: UInt8) -> Control? {
        keys.first { $0.bytes.contains(byte) }?.control
    }

    /// The control a key pressed in the preview's window asks for, by the key's X name: the same
    /// as the key's byte in a terminal (`q` as q, `space` as Space, `KP_Add` as +).
    static func control(forKeyNamed name: String) -> Control? {
        if name.utf8.count == 1, let byte = name.utf8.first { return control(for: byte) }
        return windowKeys[name].flatMap { control(for: $0) }
    }

    /// The keys a window names by word, as the byte a terminal sends for each.
    private static let windowKeys: [String: UInt8] = [
        "space": 0x20, "KP_Space": 0x20, "Return": 0x0d, "KP_Enter": 0x0d, "BackSpace": 0x08, "Delete": 0x7f, "KP_Delete": 0x7f,
        "plus": 0x2b, "KP_Add": 0x2b, "equal": 0x3d, "minus": 0x2d, "KP_Subtract": 0x2d, "underscore": 0x5f,
    ]

    /// The table as the help of every command that reads keys prints it: a line a key, then the signals.
    static let help: String = {
        let lines = keys.map { key in "  " + key.names + String(repeating: " ", count: max(1, 24 - key.names.count)) + key.meaning }
        let signalLines = signals.map { signal -> String in
            guard let key = keys.first(where: { $0.control == signal.control }) else { return signal.names + ": stop now, exit 130" }
            return signal.names + " as " + key.names
        }
        return "Keys in a terminal or the preview's window, the same in every command:\n" + lines.joined(separator: "\n")
            + "\nSignals: " + signalLines.joined(separator: "; ") + "."
    }()
}
