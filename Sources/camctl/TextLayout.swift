extension StringProtocol {
    /// The text without whitespace (spaces, tabs, line ends) at either end.
    func trimmed() -> String {
        String(String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace)).reversed())
    }
}

extension String {
    /// The text with spaces after it up to `width` characters, for a column; longer text as it is.
    func padded(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
