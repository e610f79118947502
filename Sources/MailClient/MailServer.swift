import Curl
import Dispatch

/// The SMTP server mail is sent through, by libcurl: `smtp://HOST[:PORT]` (with STARTTLS when the
/// server offers it, and only with it when logging in) or `smtps://HOST[:PORT]`. Each message is
/// sent on a queue of its own, one at a time, so a slow server holds no thread of Swift's pool.
///
/// ```swift
/// let server = try MailServer(url: "smtp://mail.example.com:587", from: MailAddress("booth@example.com")!)
/// try await server.send(message)
/// ```
public struct MailServer: Sendable {
    public let url: String
    public let from: MailAddress
    /// The login, when the server asks for one.
    public let user: String?
    public let password: String?
    /// How long a message may take to send, in all.
    public var timeout: Duration = .seconds(30)

    /// A server at `url`, sending as `from`.
    ///
    /// - Throws: ``MailError`` when `url` is not `smtp://` or `smtps://` with a host.
    public init(url: String, from: MailAddress, user: String? = nil, password: String? = nil) throws(MailError) {
        let authority = url.drop { $0 != "/" }.dropFirst(2).prefix { $0 != "/" }
        let host = authority.prefix { $0 != ":" }
        // No login in the address: it goes in --mail-user and a password file, never in words a guest may see.
        guard url.hasPrefix("smtp://") || url.hasPrefix("smtps://"), !host.isEmpty, !authority.contains("@"),
              !url.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true }) else {
            throw MailError("\(url) is not a mail server's address; give smtp://HOST:PORT or smtps://HOST:PORT")
        }
        (self.url, self.from, self.user, self.password) = (url, from, user, password)
    }

    /// Sends `message` to its one recipient.
    ///
    /// - Throws: ``MailError`` with the server's or libcurl's reason when it is not accepted.
    public func send(_ message: MailMessage) async throws(MailError) {
        let bytes = message.bytes()
        let result: Result<Void, MailError> = await withCheckedContinuation { continuation in
            Self.queue.async {
                continuation.resume(returning: Result { () throws(MailError) in try self.transfer(bytes, to: message.to) })
            }
        }
        try result.get()
    }

    /// Where messages are sent from: one at a time.
    private static let queue = DispatchQueue(label: "camctl.mail")

    /// One blocking SMTP transaction.
    private func transfer(_ message: [UInt8], to recipient: MailAddress) throws(MailError) {
        guard var api = CurlLibrary.shared?.api else { throw MailError("mail needs libcurl, which is not installed; install the libcurl4 package") }
        guard let curl = api.easy_init() else { throw MailError("libcurl could not start a transfer") }
        defer { api.easy_cleanup(curl) }
        guard let recipients = api.slist_append(nil, "<\(recipient.text)>") else { throw MailError("libcurl could not list the recipient") }
        defer { api.slist_free_all(recipients) }
        let body = Body(message)
        let context = Unmanaged.passUnretained(body).toOpaque()
        var settings = [
            camctl_curl_set_text(&api, curl, CURLOPT_URL, url),
            camctl_curl_set_text(&api, curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps"),
            camctl_curl_set_number(&api, curl, CURLOPT_NOSIGNAL, 1),
            camctl_curl_set_number(&api, curl, CURLOPT_TIMEOUT_MS, Int(timeout.components.seconds * 1000)),
            camctl_curl_set_number(&api, curl, CURLOPT_CONNECTTIMEOUT_MS, 10_000),
            // A password never goes over a connection without TLS.
            camctl_curl_set_number(&api, curl, CURLOPT_USE_SSL, Int(password == nil ? CURLUSESSL_TRY.rawValue : CURLUSESSL_ALL.rawValue)),
            camctl_curl_set_text(&api, curl, CURLOPT_MAIL_FROM, "<\(from.text)>"),
            camctl_curl_set_list(&api, curl, CURLOPT_MAIL_RCPT, recipients),
            camctl_curl_set_number(&api, curl, CURLOPT_UPLOAD, 1),
            camctl_curl_set_size(&api, curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(message.count)),
            camctl_curl_set_reader(&api, curl, { buffer, size, count, context in
                guard let buffer, let context else { return 0 }
                let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
                let (room, overflow) = size.multipliedReportingOverflow(by: count)
                guard !overflow else { return 0 }
                let length = min(room, body.bytes.count - body.sent)
                body.bytes.withUnsafeBytes { bytes in
                    buffer.withMemoryRebound(to: UInt8.self, capacity: length) { $0.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + body.sent, count: length) }
                }
                body.sent += length
                return length
            }, context),
        ]
        if let user { settings.append(camctl_curl_set_text(&api, curl, CURLOPT_USERNAME, user)) }
        if let password { settings.append(camctl_curl_set_text(&api, curl, CURLOPT_PASSWORD, password)) }
        guard settings.allSatisfy({ $0 == CURLE_OK }) else { throw MailError("libcurl refused the message's settings") }
        let code = withExtendedLifetime(body) { api.easy_perform(curl) }
        guard code == CURLE_OK else {
            let reason = api.easy_strerror(code).map { String(cString: $0).lowercased() } ?? "libcurl error \(code.rawValue)"
            let status = camctl_curl_response_code(&api, curl)
            throw MailError("the mail server did not take the message (\(reason)\(status > 0 ? ", it answered \(status)" : ""))")
        }
    }

    /// A message being sent, and how much of it went; used only by its own transfer's thread.
    private final class Body {
        let bytes: [UInt8]
        var sent = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }
    }
}

/// Why a message was not sent: one sentence.
public struct MailError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(_ message: String) {
        self.message = message
    }
}
