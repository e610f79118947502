/// How much text camctl draws on a picture (a caption, a time stamp's format, a template's words):
/// counted as a reader counts characters, and in bytes, and with few marks on each character, so
/// that no text of allowed length takes the renderer minutes or a settings file past its size.
public enum DrawnText {
    /// The most characters (grapheme clusters, as a reader counts them).
    public static let maximumCharacters = 200
    /// The most bytes of UTF-8.
    public static let maximumBytes = 800
    /// The most Unicode scalars one character may hold (a letter and its accents, an emoji sequence).
    public static let maximumScalarsPerCharacter = 16

    /// Why `text` cannot be drawn, as the end of a sentence whose subject the caller names
    /// (`"is empty"`, `"is longer than 200 characters"`, …); `nil` when it can.
    public static func problem(with text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text.utf8.count > maximumBytes { return "is longer than \(maximumBytes) bytes" }
        if text.count > maximumCharacters { return "is longer than \(maximumCharacters) characters" }
        if text.contains(where: { $0.unicodeScalars.count > maximumScalarsPerCharacter }) {
            return "has a character carrying more than \(maximumScalarsPerCharacter - 1) marks"
        }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
            return "holds a control character; only a line break is allowed"
        }
        return nil
    }
}
