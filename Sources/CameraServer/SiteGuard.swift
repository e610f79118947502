import Formatting
import HTTPServer

/// Keeps other sites' pages out. Any page a person visits can send requests to the server (a
/// form, a `fetch` that does not read the answer), and through a name it controls that resolves
/// to this machine (DNS rebinding) read the answers too. So:
/// - a server that needs no token (on loopback) answers only requests addressed to a loopback
///   name, `localhost`, `127.0.0.1` or `[::1]`: a rebound name is refused;
/// - a request that changes something is refused when the browser says it comes from a page of
///   another origin than the server's;
/// - its body, if any, must be JSON: a page cannot send JSON to another site without asking the
///   site first, which this server never grants.
struct SiteGuard: Sendable {
    /// Whether the server listens on loopback: then requests must be addressed to one of
    /// ``loopbackHosts``; elsewhere to any name (guests reach it by whatever name or address
    /// their network gives it, and everything but the page needs the token there).
    let isOnLoopback: Bool

    /// The names (without the port) a server on loopback answers to.
    static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    /// Methods that only read.
    static let readingMethods: Set<String> = ["GET", "HEAD", "OPTIONS"]

    /// Refuses a request that another site's page may have sent.
    func check(_ request: HTTPRequest) throws(APIError) {
        let host = request.headers["host"]?.lowercased() ?? ""
        if isOnLoopback, !Self.loopbackHosts.contains(Self.name(ofHost: host)) {
            throw APIError(403, "this server answers only requests addressed to localhost, 127.0.0.1 or [::1]; open it by one of those names")
        }
        guard !Self.readingMethods.contains(request.method) else { return }
        if let origin = request.headers["origin"]?.lowercased(), !Self.isOrigin(origin, of: host) {
            throw APIError(403, "a page of another site (\(origin)) may not change anything here; use the server's own page or a program of your own")
        }
        let type = request.headers["content-type"].map { Self.mediaType($0) }
        if (type != nil || !request.body.isEmpty) && type != "application/json" {
            throw APIError(415, "the request's body must be JSON, sent with Content-Type: application/json")
        }
    }

    /// The name in a `Host` header, without its port: `127.0.0.1`, `[::1]`, `localhost`.
    static func name(ofHost host: String) -> String {
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") { return String(host[...end]) }
        return String(host.prefix { $0 != ":" })
    }

    /// Whether `origin` (a browser's `Origin` header) is the server's own, reached at `host`.
    private static func isOrigin(_ origin: String, of host: String) -> Bool {
        !host.isEmpty && (origin == "http://" + host || origin == "https://" + host)
    }

    /// A `Content-Type`'s media type, lower-case, without its parameters.
    private static func mediaType(_ contentType: String) -> String {
        contentType.prefix { $0 != ";" }.trimmed().lowercased()
    }
}
