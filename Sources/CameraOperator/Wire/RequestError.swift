/// A request a transport cannot turn into an action: its one sentence says what to send instead.
public struct RequestError: Error, Sendable, Equatable {
    /// Whether the request was wrong, or named something that is not there (a camera).
    public enum Kind: Sendable, Equatable {
        case badRequest, notFound
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        (self.kind, self.message) = (kind, message)
    }

    static func badRequest(_ message: String) -> RequestError {
        RequestError(.badRequest, message)
    }
}
