import CMicroHTTPD
import Dispatch
import Glibc
import Synchronization

/// An HTTP/1.1 server (libmicrohttpd underneath: it reads and checks every request; nothing here
/// parses HTTP) that hands each request to an async handler. Each connection is served on a
/// thread of its own, so a slow client, or a long streamed response, holds only its own thread;
/// the number of connections, in all and per client address, their idle time, their headers'
/// size and their bodies' size are limited.
///
/// ```swift
/// let server = try HTTPServer(host: "127.0.0.1", port: 8080) { request in
///     HTTPResponse(type: "text/plain", bytes: Array("hello".utf8))
/// }
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    /// What one client, and all of them, may use.
    public struct Limits: Sendable {
        /// Connections open at once, in all and from one address.
        public var connections = 64
        public var connectionsPerAddress = 32
        /// Seconds a connection may stay silent before it is closed.
        public var idleSeconds = 30
        /// Seconds in which a request's line and headers must all come, from the connection's
        /// opening or its previous request's end, however slowly they trickle in.
        public var headerSeconds = 10
        /// Seconds in which a request's body must all come, from its headers.
        public var bodySeconds = 30
        /// The request line and headers of one request.
        public var headerBytes = 32 * 1024
        /// One request's body; a larger one is answered 413.
        public var bodyBytes = 1 << 20

        public init() {}
    }

    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    private let daemon: Daemon
    private let context: Unmanaged<ServerContext>
    /// The port it listens on (the one the system chose, when asked for port 0).
    public let port: Int

    /// Listens on `host` (an IPv4 or IPv6 address) and `port`.
    ///
    /// - Throws: ``HTTPServerError`` when the address is not one, or cannot be listened on.
    public init(host: String, port: Int, limits: Limits = Limits(), handler: @escaping Handler) throws(HTTPServerError) {
        guard (0...65535).contains(port) else { throw HTTPServerError("\(port) is not a port number (0 to 65535)") }
        guard let library = MicroHTTPD.loaded else { throw HTTPServerError("libmicrohttpd is not installed; install the libmicrohttpd12 package") }
        let context = Unmanaged.passRetained(ServerContext(handler: handler, limits: limits))
        var storage = sockaddr_storage()
        let started: OpaquePointer? = withUnsafeMutableBytes(of: &storage) { raw in
            guard SocketAddress.fill(raw, host: host, port: UInt16(port)) else { return nil }
            return withUnsafePointer(to: library.api) { api in
                camctl_http_start(api, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), UInt32(limits.connections),
                                     UInt32(limits.connectionsPerAddress), UInt32(limits.idleSeconds), limits.headerBytes,
                                     accessHandler, context.toOpaque(), requestCompleted, connectionNotified)
            }
        }
        guard let started else {
            context.takeUnretainedValue().watch.stop()
            context.release()
            let reason = SocketAddress.isAddress(host) ? "it may be in use, or not an address of this machine" : "it is not an IPv4 or IPv6 address"
            throw HTTPServerError("cannot listen on \(host):\(port): \(reason)")
        }
        daemon = Daemon(raw: started)
        self.context = context
        self.port = Int(withUnsafePointer(to: library.api) { camctl_http_port($0, started) })
    }

    /// Ends every streamed response, waits for the connections' threads, and stops listening.
    /// Handlers still running are waited for.
    public func stop() {
        guard daemon.stop(after: { context.takeUnretainedValue().endStreams() }) else { return }
        context.takeUnretainedValue().watch.stop()
        context.release()
    }

    deinit {
        stop()
    }
}

/// The daemon's handle, stopped once.
///
/// `@unchecked Sendable`: the handle is read and cleared only under `lock`, by ``stop(after:)``,
/// and libmicrohttpd's daemon may be stopped from any thread.
private final class Daemon: @unchecked Sendable {
    private var raw: OpaquePointer?
    private let lock = Mutex(())

    init(raw: OpaquePointer) {
        self.raw = raw
    }

    /// Stops it (after `before`); `false` when it was stopped already.
    func stop(after before: () -> Void) -> Bool {
        let daemon = lock.withLock { _ in
            defer { raw = nil }
            return raw
        }
        guard let daemon else { return false }
        before()
        MicroHTTPD.functions.stop_daemon(daemon)
        return true
    }
}

/// What the C callbacks reach through their context pointer: the handler, the limits, the
/// connections' deadlines and the open streams.
final class ServerContext: Sendable {
    let handler: HTTPServer.Handler
    let limits: HTTPServer.Limits
    let watch: ConnectionWatch
    private let streams = Mutex<(open: [ObjectIdentifier: HTTPStream], isStopping: Bool)>(([:], false))
    /// The handlers running, by a number of their own: cancelled when the server stops.
    private let handlers = Mutex<(running: [Int: Task<Void, Never>], next: Int)>(([:], 0))

    init(handler: @escaping HTTPServer.Handler, limits: HTTPServer.Limits) {
        (self.handler, self.limits) = (handler, limits)
        watch = ConnectionWatch(limits: limits)
    }

    /// Keeps a stream to end when the server stops; `false` when it is stopping already.
    func track(_ stream: HTTPStream) -> Bool {
        streams.withLock { streams in
            guard !streams.isStopping else { return false }
            streams.open[ObjectIdentifier(stream)] = stream
            return true
        }
    }

    func forget(_ stream: HTTPStream) {
        _ = streams.withLock { $0.open.removeValue(forKey: ObjectIdentifier(stream)) }
    }

    /// Ends the open streams and cancels the running handlers (a capture waiting for its
    /// instant, a review for its answer), so the server stops at once.
    func endStreams() {
        let open = streams.withLock { streams in
            streams.isStopping = true
            return Array(streams.open.values)
        }
        for stream in open { stream.close() }
        for handler in handlers.withLock({ Array($0.running.values) }) { handler.cancel() }
    }

    /// Runs the handler on Swift's threads and waits for it on this connection's own thread,
    /// looking twice a second whether the client has gone: then the handler's task is cancelled
    /// (a capture waiting for its instant, a review for its answer, end), and its answer, when it
    /// comes, goes nowhere.
    func respond(to request: HTTPRequest, on connection: OpaquePointer) -> HTTPResponse {
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        let number = handlers.withLock { handlers in
            defer { handlers.next += 1 }
            return handlers.next
        }
        let task = Task { [handler] in
            let response = await handler(request)
            answer.response.withLock { $0 = response }
            done.signal()
        }
        let isStopping = handlers.withLock { handlers in
            handlers.running[number] = task
            return streams.withLock { $0.isStopping }
        }
        if isStopping { task.cancel() }
        defer { _ = handlers.withLock { $0.running.removeValue(forKey: number) } }
        while done.wait(timeout: .now() + .milliseconds(500)) == .timedOut {
            if watch.hasHungUp(connection) {
                task.cancel()
                done.wait()
                break
            }
        }
        return answer.response.withLock { $0 } ?? HTTPResponse(status: 500)
    }
}

/// The handler's response, handed from its task to the waiting connection thread.
private final class Answer: Sendable {
    let response = Mutex<HTTPResponse?>(nil)
}

/// libmicrohttpd's functions, from the library loaded once, when the first server starts.
struct MicroHTTPD: @unchecked Sendable {
    // @unchecked Sendable: function pointers into a library that stays loaded, never changed.
    let api: camctl_microhttpd

    /// The library; `nil` when it is not installed.
    static let loaded: MicroHTTPD? = {
        var api = camctl_microhttpd()
        return camctl_microhttpd_load(&api) != 0 ? MicroHTTPD(api: api) : nil
    }()

    /// Its functions, for the daemon's callbacks: a daemon exists only once the library is loaded.
    static var functions: camctl_microhttpd { loaded!.api }
}
