/// One mistake in a description file, at its place: `FILE:LINE:COLUMN: what is wrong`.
public struct ScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    /// What is wrong and what was expected.
    public let message: String

    public init(line: Int, column: Int, _ message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COLUMN: message`, as compilers write it.
    public func formatted(file: String) -> String {
        "\(file):\(line):\(column): \(message)"
    }

    public var description: String { "\(line):\(column): \(message)" }
}

/// Every mistake found in a file, in order.
public struct ScriptErrors: Error, Sendable, Equatable {
    public let errors: [ScriptError]
}
