/// One mistake in a description file, at its place: `FILE:LINE:COLUMN: what is wrong`.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    /// What is wrong and what was expected.
    public let message: String
    /// What the writer can do about it, where a front end words it in its own terms.
    public let remedy: Remedy?

    /// What the writer can do about a mistake.
    public enum Remedy: Sendable, Equatable, CustomStringConvertible {
        /// Look at the list of filters.
        case listFilters

        public var description: String {
            switch self {
            case .listFilters: "the list of filters names them"
            }
        }
    }

    public init(line: Int, column: Int, _ message: String, remedy: Remedy? = nil) {
        self.line = line
        self.column = column
        self.message = message
        self.remedy = remedy
    }

    /// `FILE:LINE:COLUMN: message`, as compilers write it, with the remedy in `remedyWords`.
    public func formatted(file: String, remedyWords: (Remedy) -> String = \.description) -> String {
        "\(file):\(line):\(column): \(message)" + (remedy.map { "; " + remedyWords($0) } ?? "")
    }

    public var description: String { "\(line):\(column): \(message)" + (remedy.map { "; \($0)" } ?? "") }
}

/// Every mistake found in a file, in order.
public struct ScriptErrors: Error, Sendable, Equatable {
    public let errors: [ScriptError]
}
