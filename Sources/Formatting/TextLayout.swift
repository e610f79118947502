extension StringProtocol {
    /// The text without the characters at either end for which `isTrimmed` holds: by default
    /// whitespace (spaces, tabs, line ends).
    public func trimmed(where isTrimmed: (Character) -> Bool = \.isWhitespace) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}

extension String {
    /// The text with spaces after it up to `width` characters, for a column; longer text as it is.
    public func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
