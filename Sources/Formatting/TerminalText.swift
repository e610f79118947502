extension StringProtocol {
    /// The text as a terminal may be shown it: without control characters (escape sequences
    /// start with one; tabs are kept) and without the marks that reorder text right to left
    /// (U+202E and its kind), so text from a file or the network cannot rewrite what the terminal
    /// shows.
    public var terminalSafe: String {
        String(String.UnicodeScalarView(unicodeScalars.filter { scalar in
            scalar == "\t" || (scalar.properties.generalCategory != .control && !Self.isDirectionMark(scalar))
        }))
    }

    /// ``terminalSafe``, and at most `limit` characters (the last an ellipsis when cut): words
    /// from outside (a printer's, a node's) shown inside a sentence or a table of camctl's own.
    public func terminalSafe(limit: Int) -> String {
        let safe = terminalSafe
        return safe.count <= limit ? safe : String(safe.prefix(Swift.max(0, limit - 1))) + "…"
    }

    /// The bidirectional formatting marks: embeddings, overrides, isolates and the implicit marks.
    private static func isDirectionMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
