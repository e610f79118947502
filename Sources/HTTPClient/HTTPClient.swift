import Curl
import Dispatch

/// Downloads over HTTP(S) through libcurl: a whole body into memory, never more than a limit.
/// Each download runs on a serial queue of its own (a thread of its own, not one of the shared
/// pool's), so awaiting one holds no thread that Swift's tasks need.
///
/// ```swift
/// let bytes = try await HTTPClient().get("http://10.0.0.7:8080/p/3-9f…", limit: 64 << 20)
/// ```
public struct HTTPClient: Sendable {
    /// How long a download may take in all, and how long to wait for a connection.
    public var timeout: Duration
    public var connectTimeout: Duration

    public init(timeout: Duration = .seconds(60), connectTimeout: Duration = .seconds(5)) {
        (self.timeout, self.connectTimeout) = (timeout, connectTimeout)
    }

    /// The body of a `GET` of `url`.
    ///
    /// - Throws: ``HTTPClientError`` when the server cannot be reached, answers other than 200,
    ///   sends more than `limit` bytes, or takes longer than the timeout.
    public func get(_ url: String, limit: Int) async throws(HTTPClientError) -> [UInt8] {
        let (timeout, connectTimeout) = (self.timeout, self.connectTimeout)
        let result: Result<[UInt8], HTTPClientError> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "camctl.http-client").async {
                continuation.resume(returning: Result { () throws(HTTPClientError) in
                    try Self.download(url, limit: limit, timeout: timeout, connectTimeout: connectTimeout)
                })
            }
        }
        return try result.get()
    }

    /// One blocking download.
    private static func download(_ url: String, limit: Int, timeout: Duration, connectTimeout: Duration) throws(HTTPClientError) -> [UInt8] {
        guard var api = CurlLibrary.shared?.api else {
            throw HTTPClientError(url: url, reason: "libcurl is not installed; install the libcurl4 package")
        }
        guard let curl = api.easy_init() else { throw HTTPClientError(url: url, reason: "libcurl could not start a transfer") }
        defer { api.easy_cleanup(curl) }
        let body = Body(limit: limit)
        let context = Unmanaged.passUnretained(body).toOpaque()
        let settings = [
            camctl_curl_set_text(&api, curl, CURLOPT_URL, url),
            camctl_curl_set_text(&api, curl, CURLOPT_PROTOCOLS_STR, "http,https"),
            camctl_curl_set_number(&api, curl, CURLOPT_NOSIGNAL, 1),
            camctl_curl_set_number(&api, curl, CURLOPT_TIMEOUT_MS, Int(timeout.milliseconds)),
            camctl_curl_set_number(&api, curl, CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout.milliseconds)),
            camctl_curl_set_size(&api, curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limit)),
            camctl_curl_set_writer(&api, curl, { data, size, count, context in
                guard let data, let context else { return 0 }
                let body = Unmanaged<Body>.fromOpaque(context).takeUnretainedValue()
                let (length, overflow) = size.multipliedReportingOverflow(by: count)
                guard !overflow, body.bytes.count + length <= body.limit else { return 0 }  // ends the transfer
                data.withMemoryRebound(to: UInt8.self, capacity: length) { body.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: length)) }
                return length
            }, context),
        ]
        guard settings.allSatisfy({ $0 == CURLE_OK }) else { throw HTTPClientError(url: url, reason: "libcurl refused the transfer's settings") }
        let code = withExtendedLifetime(body) { api.easy_perform(curl) }
        switch code {
        case CURLE_OK:
            let status = camctl_curl_response_code(&api, curl)
            guard status == 200 else { throw HTTPClientError(url: url, reason: "the server answered \(status)", status: status) }
            return body.bytes
        case CURLE_WRITE_ERROR, CURLE_FILESIZE_EXCEEDED:
            throw HTTPClientError(url: url, reason: "the server sent more than the \(limit) bytes expected")
        default:
            throw HTTPClientError(url: url, reason: api.easy_strerror(code).map { String(cString: $0).lowercased() } ?? "libcurl error \(code.rawValue)")
        }
    }

    /// What a transfer received so far; used only by its own transfer's thread.
    private final class Body {
        let limit: Int
        var bytes: [UInt8] = []

        init(limit: Int) {
            self.limit = limit
        }
    }
}

/// Why a download failed.
public struct HTTPClientError: Error, Sendable, CustomStringConvertible {
    /// What was downloaded.
    public let url: String
    public let reason: String
    /// The server's status, when it answered other than 200.
    public let status: Int?

    init(url: String, reason: String, status: Int? = nil) {
        (self.url, self.reason, self.status) = (url, reason, status)
    }

    public var description: String { "\(url) could not be downloaded: \(reason)" }
}

private extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
