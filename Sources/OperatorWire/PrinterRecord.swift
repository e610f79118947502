/// A served booth's printer as its owner sees it (`GET /api/printer`): its state and reasons, its
/// supplies' levels as it reports them, and how many copies this library has printed.
public struct PrinterRecord: Codable, Sendable, Equatable {
    /// A supply (ink, ribbon, paper) and its level in percent; `nil` when the printer does not know.
    public struct Supply: Codable, Sendable, Equatable {
        public var name: String
        public var level: Int?

        public init(name: String, level: Int?) {
            (self.name, self.level) = (name, level)
        }
    }

    /// The printer's name or address.
    public var printer: String
    /// `idle`, `processing` or `stopped`; `unreachable` when it does not answer.
    public var state: String
    /// What the printer says is wrong or low (`media-empty`, `marker-supply-low-warning`), by keyword.
    public var reasons: [String]
    /// Its own words about its state, when it says any.
    public var message: String?
    public var supplies: [Supply]
    /// Copies printed from this library, of every picture.
    public var printed: Int

    public init(printer: String, state: String, reasons: [String] = [], message: String? = nil, supplies: [Supply] = [], printed: Int) {
        (self.printer, self.state, self.reasons, self.message, self.supplies, self.printed) = (printer, state, reasons, message, supplies, printed)
    }
}
