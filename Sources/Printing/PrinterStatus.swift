/// What a printer says of itself: its state (`idle`, `processing`, `stopped`), what is wrong or
/// low by keyword, its own words, and its supplies with their levels in percent (`nil`: unknown).
public struct PrinterStatus: Sendable {
    public let state: String
    public let reasons: [String]
    public let message: String?
    public let supplies: [(name: String, level: Int?)]
}
