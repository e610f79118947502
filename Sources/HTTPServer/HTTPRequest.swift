/// A request as the server read it: its line, headers and whole body (within the server's limits).
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, … as the client sent it.
    public let method: String
    /// The path, percent-decoded, without the query: `/api/photos/3`.
    public let path: String
    /// The query's arguments, decoded; a name given twice keeps its last value.
    public let query: [String: String]
    /// The headers, by lower-case name; a name given twice keeps its last value.
    public let headers: [String: String]
    public let body: [UInt8]

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: [UInt8] = []) {
        (self.method, self.path, self.query, self.body) = (method, path, query, body)
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { $1 }
    }

    /// The path's parts between slashes: `["api", "photos", "3"]`.
    public var pathParts: [Substring] { path.split(separator: "/") }
}
