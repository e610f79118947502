import CameraOperator
import Dispatch
import Glibc
import JSON
import OperatorWire
import Synchronization

/// An operator served over a Unix socket, as JSON lines: each request line (`{"action": "capture"}`,
/// as `/api/actions` takes it) is answered by its outcome's line, in order, and every event of
/// the operator goes to every client as a line, the same words `/api/events` sends. A failure is
/// the error record every transport sends (`{"error": …, "event": "error", …}`).
///
/// Sockets are waited on by threads of their own, never by Swift's shared threads.
public final class SocketTransport: Sendable {
    /// Why the socket could not be served.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    private let listener: Int32
    private let sessionOperator: SessionOperator
    private let clients = Mutex<[Int32]>([])
    private let stopped = Atomic<Bool>(false)
    public let path: String

    /// Serves `sessionOperator` on a socket made at `path` (which must not exist).
    public init(path: String, sessionOperator: SessionOperator) throws(Failure) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Failure(description: "\(path) is too long for a socket's path") }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { throw Failure(description: "no socket could be made: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw Failure(description: "\(path) could not be listened on: \(reason)")
        }
        (self.listener, self.sessionOperator, self.path) = (listener, sessionOperator, path)
        DispatchQueue(label: "socket-transport.accept").async { [self] in acceptClients() }
    }

    /// Stops listening, ends every client's connection, and removes the socket.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for client in clients.withLock({ $0 }) { shutdown(client, Int32(SHUT_RDWR)) }
        unlink(path)
    }

    private func acceptClients() {
        defer { close(listener) }
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)  // no program a hook starts inherits it
            clients.withLock { $0.append(client) }
            serve(client)
        }
    }

    /// Reads the client's lines on a thread of its own; answers them in order and tells it every
    /// event, each from a task of its own.
    private func serve(_ client: Int32) {
        let (requests, feed) = AsyncStream.makeStream(of: String.self)
        let told = sessionOperator.events()
        let writer = LineWriter(descriptor: client)
        let telling = Task { for await event in told { writer.send(WireJSON.bytes(event.record)) } }
        Task { [self] in
            for await request in requests { writer.send(await Self.answer(request, by: sessionOperator)) }
            telling.cancel()
            clients.withLock { $0.removeAll { $0 == client } }
            writer.finish()
        }
        DispatchQueue(label: "socket-transport.client").async {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                pending += chunk[..<count]
                while let end = pending.firstIndex(of: 0x0A) {
                    feed.yield(String(decoding: pending[..<end], as: UTF8.self))
                    pending.removeSubrange(...end)
                }
                // A line longer than any request is refused as it grows, not kept.
                if pending.count > 65_536 { break }
            }
            feed.finish()
        }
    }

    /// A request line's answer: its outcome's record, or the error record.
    private static func answer(_ request: String, by sessionOperator: SessionOperator) async -> [UInt8] {
        guard let object = (try? JSONValue(parsing: Array(request.utf8)))?.object else {
            return WireJSON.bytes(EventRecord.error(id: nil, status: 400, message: "a request is one JSON object on one line"))
        }
        do {
            let action = try await ActionRequest.action(object, image: await sessionOperator.camera.image, camera: await sessionOperator.device)
            return WireJSON.bytes(try await sessionOperator.perform(action).record)
        } catch let error as RequestError {
            return WireJSON.bytes(EventRecord.error(id: nil, status: 400, message: error.message))
        } catch let error as OperatorError {
            return WireJSON.bytes(EventRecord.error(id: nil, status: error.failureClass.status, message: error.message))
        } catch {
            return WireJSON.bytes(EventRecord.error(id: nil, status: 500, message: "\(error)"))
        }
    }
}

/// Whole lines written to a client, one at a time, on a queue of their own, which closes the
/// client's socket once the lines given before are written.
private final class LineWriter: Sendable {
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "socket-transport.writer")
    /// Whether the socket is closed: nothing more is written to its number, which may be another's now.
    private let isClosed = Atomic<Bool>(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Closes the socket after the lines sent so far.
    func finish() {
        queue.async { [self] in
            isClosed.store(true, ordering: .relaxed)
            close(descriptor)
        }
    }

    func send(_ line: [UInt8]) {
        queue.async { [self] in
            guard !isClosed.load(ordering: .relaxed) else { return }
            let bytes = line + [0x0A]
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                sent += count
            }
        }
    }
}
