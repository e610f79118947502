import CameraOperator
import Checksums
import Formatting
import FoundationEssentials
import Glibc
import HTTPServer

/// Who may use the server's camera and library. Requests carrying the access token may do
/// anything: an `Authorization: Bearer` header, a `token` query argument (the page's first
/// visit), or the cookie such a visit sets. Without it, on loopback, anyone on this machine may
/// read (the page, the live picture, the status, the library), and the page hands its own
/// same-site cookie to the browser that loads it, so it may act; a program that changes anything
/// there sends the token. On any other address only the page itself is open. ``SiteGuard``
/// keeps other sites' pages out on every address.
public struct AccessControl: Sendable {
    /// The token that opens everything.
    public let token: String
    /// Whether the server listens on loopback.
    public let isOnLoopback: Bool

    static let cookieName = "camctl_token"

    public init(token: String, onLoopback: Bool) {
        (self.token, self.isOnLoopback) = (token, onLoopback)
    }

    /// Whether `host` is loopback: `127.0.0.1`, `::1` or `localhost` (the rest of 127.0.0.0/8
    /// is not: the token is needed there as on any other address).
    public static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        return SiteGuard.loopbackHosts.contains(name == "::1" ? "[::1]" : name)
    }

    /// Whether the request may use what it asks for beyond the page.
    func allows(_ request: HTTPRequest) -> Bool {
        carriesToken(request) || isOnLoopback && SiteGuard.readingMethods.contains(request.method)
    }

    /// The header that keeps the token in the browser: after a visit with a right `?token=`, or,
    /// on loopback, a visit of the page itself (which SiteGuard has seen addressed to this server).
    func cookieHeader(for request: HTTPRequest) -> (name: String, value: String)? {
        let hasRightQuery = request.query["token"].map { HMAC.matches($0, token) } ?? false
        let isOwnPage = isOnLoopback && request.method == "GET" && ["/", "/index.html"].contains(request.path)
        guard hasRightQuery || isOwnPage else { return nil }
        return ("Set-Cookie", "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict")
    }

    /// The answer to a request: refused when ``SiteGuard`` keeps it out, else `route`'s (or its
    /// failure as JSON), with the cookie that keeps the token in the browser when it hands one.
    func answer(_ request: HTTPRequest, by route: (HTTPRequest) async throws(APIError) -> HTTPResponse) async -> HTTPResponse {
        do {
            try SiteGuard(isOnLoopback: isOnLoopback).check(request)
            var response = try await route(request)
            if let cookie = cookieHeader(for: request) { response.headers.append(cookie) }
            return response
        } catch {
            return error.response
        }
    }

    /// Whether the request carries the token in `Authorization: Bearer`, as a program does (a
    /// browser's cookie is not it).
    func carriesBearerToken(_ request: HTTPRequest) -> Bool {
        guard let header = request.headers["authorization"], header.hasPrefix("Bearer ") else { return false }
        return HMAC.matches(String(header.dropFirst("Bearer ".count)), token)
    }

    private func carriesToken(_ request: HTTPRequest) -> Bool {
        if carriesBearerToken(request) { return true }
        if let query = request.query["token"], HMAC.matches(query, token) { return true }
        return cookies(of: request)[Self.cookieName].map { HMAC.matches($0, token) } ?? false
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
