import CMicroHTTPD
import Dispatch
import Glibc
import Synchronization

/// Holds every connection to its deadlines, so that slow clients cannot hold the server: a
/// request's line and headers must all come within ``HTTPServer/Limits/headerSeconds`` of the
/// connection opening or of its previous request ending, however slowly they trickle in; its body
/// within ``HTTPServer/Limits/bodySeconds`` of its headers. A connection past its deadline is shut
/// down, which ends it on its own thread. While the server handles a request the connection has
/// no deadline (the handler's waits are bounded), but a client that hangs up meanwhile is seen
/// (``hasHungUp(_:)``), so its handler can be cancelled.
final class ConnectionWatch: Sendable {
    private enum Phase {
        case awaitingRequest(since: ContinuousClock.Instant)
        case readingBody(since: ContinuousClock.Instant)
        case handling
        case shut
    }

    private struct Connection {
        let socket: Int32
        var phase: Phase
    }

    private let limits: HTTPServer.Limits
    /// The open connections, by their libmicrohttpd handle. A connection is removed before its
    /// socket is closed (libmicrohttpd tells of the close first), so a socket here is open.
    private let connections = Mutex<[UInt: Connection]>([:])
    private let isStopped = Atomic<Bool>(false)
    private let queue = DispatchQueue(label: "camctl.http.deadlines")

    init(limits: HTTPServer.Limits) {
        self.limits = limits
        scheduleSweep()
    }

    /// Stops looking at deadlines.
    func stop() {
        isStopped.store(true, ordering: .releasing)
    }

    func opened(_ connection: OpaquePointer, socket: Int32) {
        guard socket >= 0 else { return }
        connections.withLock { $0[Self.key(connection)] = Connection(socket: socket, phase: .awaitingRequest(since: .now)) }
    }

    func closed(_ connection: OpaquePointer) {
        _ = connections.withLock { $0.removeValue(forKey: Self.key(connection)) }
    }

    /// The request's headers are in; its body, if any, comes next.
    func headersCame(on connection: OpaquePointer) {
        change(connection, to: .readingBody(since: .now))
    }

    /// The whole request is in, and handled now.
    func handling(_ connection: OpaquePointer) {
        change(connection, to: .handling)
    }

    /// The request's response is sent (or the request was given up): the next request's deadline runs.
    func requestEnded(on connection: OpaquePointer) {
        change(connection, to: .awaitingRequest(since: .now))
    }

    /// Whether the client of a connection has closed it, or its end of it, or the connection failed.
    func hasHungUp(_ connection: OpaquePointer) -> Bool {
        connections.withLock { connections in
            guard let socket = connections[Self.key(connection)]?.socket else { return true }
            return camctl_socket_hung_up(socket) != 0
        }
    }

    private func change(_ connection: OpaquePointer, to phase: Phase) {
        connections.withLock { connections in
            let key = Self.key(connection)
            guard let current = connections[key] else { return }
            if case .shut = current.phase { return }
            connections[key]?.phase = phase
        }
    }

    /// Shuts down every connection past its deadline; runs each second.
    private func sweep() {
        let now = ContinuousClock.now
        let header = Duration.seconds(limits.headerSeconds), body = Duration.seconds(limits.bodySeconds)
        connections.withLock { connections in
            for (key, connection) in connections {
                let isLate = switch connection.phase {
                case .awaitingRequest(let since): now - since > header
                case .readingBody(let since): now - since > body
                case .handling, .shut: false
                }
                guard isLate else { continue }
                shutdown(connection.socket, Int32(SHUT_RDWR))
                connections[key]?.phase = .shut
            }
        }
    }

    private func scheduleSweep() {
        queue.asyncAfter(deadline: .now() + 1) { [weak self] in
            guard let self, !isStopped.load(ordering: .acquiring) else { return }
            sweep()
            scheduleSweep()
        }
    }

    private static func key(_ connection: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
    }
}
