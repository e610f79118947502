/// How a picture is printed: how many copies, and on which paper.
public struct PrintOptions: Sendable, Equatable {
    /// How many copies.
    public var copies: Int
    /// The paper by its PWG name (`na_index-4x6_4x6in`), or `nil` for the printer's default.
    public var media: String?

    /// `copies` on `media` (a PWG name, or a short one: ``mediaName(_:)``).
    public init(copies: Int = 1, media: String? = nil) {
        self.copies = copies
        self.media = media.map(Self.mediaName)
    }

    /// The PWG name of a paper size: the short names photo and booth printers are known by
    /// (`4x6`, `5x7`, `a6`, `a5`, `a4`, `letter`), or a PWG name as it is.
    public static func mediaName(_ name: String) -> String {
        shortNames[name.lowercased()] ?? name
    }

    /// The short names, as ``mediaName(_:)`` reads them.
    public static let shortNames: [String: String] = [
        "4x6": "na_index-4x6_4x6in", "5x7": "na_5x7_5x7in", "a6": "iso_a6_105x148mm", "a5": "iso_a5_148x210mm",
        "a4": "iso_a4_210x297mm", "letter": "na_letter_8.5x11in",
    ]
}
