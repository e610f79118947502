import HTTPServer
import OperatorWire
import Synchronization

/// The events of the session, the operator and each saved photo, as JSON objects, sent to every
/// client of `GET /api/events` as server-sent events (`data: {...}` lines).
final class EventHub: Sendable {
    private let streams = Mutex<[HTTPStream]>([])
    /// Others told of every event, as its JSON (a fleet node publishing them).
    private let listeners = Mutex<[@Sendable ([UInt8]) -> Void]>([])

    /// Tells `listener` every event from now on, as its JSON.
    func listen(_ listener: @escaping @Sendable ([UInt8]) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    /// The response for a new client: its events from now on.
    func subscribe() -> HTTPResponse {
        let stream = HTTPStream(keeping: 256)
        stream.send(Array(": camctl events\n\n".utf8))
        streams.withLock { $0.append(stream) }
        return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")],
                            body: .stream(stream))
    }

    /// Sends an event to every client.
    func publish(_ event: EventRecord) {
        let json = WireJSON.bytes(event)
        send(Array("data: ".utf8) + json + Array("\n\n".utf8))
        for listener in listeners.withLock({ $0 }) { listener(json) }
    }

    /// A comment, so a connection with no events for a while is not ended as silent.
    func keepAlive() {
        send(Array(": keep-alive\n\n".utf8))
    }

    /// How many clients listen.
    var clientCount: Int { streams.withLock { $0.count } }

    /// Ends every client's stream.
    func finish() {
        for stream in streams.withLock({ streams in defer { streams = [] }; return streams }) { stream.finish() }
    }

    private func send(_ chunk: [UInt8]) {
        streams.withLock { streams in streams.removeAll { !$0.send(chunk) } }
    }
}
