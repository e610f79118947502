import Glibc
import Synchronization

/// What the server sends back: a status, headers, and a body that is whole or streamed.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// Sent as it is written, for as long as it stays open (a live picture, events).
        case stream(HTTPStream)
        /// A file sent from disk as it is read, never whole in memory (a movie).
        case file(HTTPFile)
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

/// An open regular file to send as a response's body; its descriptor is the server's once the
/// response is queued, and closed here when it never is.
public final class HTTPFile: Sendable {
    private let descriptor: Int32
    /// The file's size in bytes, as it was opened.
    public let size: Int
    private let handedOver = Atomic<Bool>(false)

    /// Opens the regular file at `path`; `nil` when it is missing, unreadable or not a regular file
    /// (a FIFO is refused, never waited on).
    public convenience init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        self.init(descriptor: descriptor)
    }

    /// Takes over a descriptor open to read a file (closed here); `nil`, and the descriptor
    /// closed, when it is not a regular file.
    public init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        (self.descriptor, size) = (descriptor, Int(status.st_size))
    }

    /// The descriptor, handed over once to whoever closes it.
    func take() -> Int32? {
        handedOver.exchange(true, ordering: .acquiringAndReleasing) ? nil : descriptor
    }

    deinit {
        if !handedOver.load(ordering: .acquiring) { close(descriptor) }
    }
}
