import Checksums
import Formatting
import FoundationEssentials
import Glibc
import HTTPServer

/// Who may use the server's camera and library. On loopback, anyone on this machine (whose
/// requests ``SiteGuard`` keeps to the server's own names and pages); on any other address, only
/// requests carrying the access token: an `Authorization: Bearer` header,
/// a `token` query argument (the page's first visit), or the cookie that visit sets.
public struct AccessControl: Sendable {
    /// The token requests must carry; `nil` when none is needed.
    public let token: String?

    static let cookieName = "camctl_token"

    /// No token needed: the server listens on loopback.
    public static let loopback = AccessControl(token: nil)

    public init(token: String?) {
        self.token = token
    }

    /// Whether `host` is loopback, where no token is needed: `127.0.0.1`, `::1` or `localhost`
    /// (the rest of 127.0.0.0/8 is not: a token is needed there).
    public static func isLoopback(_ host: String) -> Bool {
        ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased())
    }

    /// Whether the request may use what needs the token.
    func allows(_ request: HTTPRequest) -> Bool {
        guard let token else { return true }
        if let header = request.headers["authorization"], header.hasPrefix("Bearer "),
           HMAC.matches(String(header.dropFirst("Bearer ".count)), token) { return true }
        if let query = request.query["token"], HMAC.matches(query, token) { return true }
        return cookies(of: request)[Self.cookieName].map { HMAC.matches($0, token) } ?? false
    }

    /// The header that keeps the token in the browser after a visit with a right `?token=`.
    func cookieHeader(for request: HTTPRequest) -> (name: String, value: String)? {
        guard let token, let query = request.query["token"], HMAC.matches(query, token) else { return nil }
        return ("Set-Cookie", "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict")
    }

    private func cookies(of request: HTTPRequest) -> [String: String] {
        var cookies: [String: String] = [:]
        for pair in (request.headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmed() }
            if parts.count == 2 { cookies[parts[0]] = parts[1] }
        }
        return cookies
    }
}

extension AccessControl {
    /// The access token kept in `folder` (the library's, as `serve-token`): read, or made on first
    /// use; `created` says whether it is new.
    ///
    /// - Throws: ``TokenFileError`` when the file cannot be made or read, or is not a plain file
    ///   of this user's that only they may read.
    public static func token(in folder: String) throws(TokenFileError) -> (token: String, created: Bool) {
        let (token, created) = try SecretFile.secret(named: "serve-token", in: folder)
        return (token, created)
    }
}
