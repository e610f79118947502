extension StringProtocol {
    /// The text without whitespace (spaces, tabs, line ends) at either end.
    func trimmed() -> String {
        String(String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace)).reversed())
    }
}
