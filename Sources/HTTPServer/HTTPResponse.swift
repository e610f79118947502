/// What the server sends back: a status, headers, and a body that is whole or streamed.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// Sent as it is written, for as long as it stays open (a live picture, events).
        case stream(HTTPStream)
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([])) {
        (self.status, self.headers, self.body) = (status, headers, body)
    }

    /// A whole body of `type` (`text/html; charset=utf-8`, `image/jpeg`, …).
    public init(status: Int = 200, type: String, bytes: [UInt8], headers: [(name: String, value: String)] = []) {
        self.init(status: status, headers: [("Content-Type", type)] + headers, body: .bytes(bytes))
    }
}
