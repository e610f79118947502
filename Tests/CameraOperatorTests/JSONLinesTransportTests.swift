import CameraKit
import CameraOperator
import JSON
import OperatorWire
import Synchronization
import Testing
import TestSupport

/// A transport of one's own, outside the server, as ARCHITECTURE.md's recipe has it: a JSON
/// request a line in; its answer, and every event, a JSON line out, in the words every
/// transport shares.
struct JSONLinesTransport {
    let sessionOperator: SessionOperator

    /// Answers each line of `requests` in turn and tells every event meanwhile, each as a line
    /// given to `send`; returns once the requests end and the events told so far are sent.
    func serve(_ requests: AsyncStream<String>, send: @escaping @Sendable (String) -> Void) async {
        let told = sessionOperator.events()
        let telling = Task { for await event in told { send(Self.line(event.record)) } }
        for await request in requests { send(await answer(request)) }
        await sessionOperator.endEvents()
        await telling.value
    }

    private func answer(_ request: String) async -> String {
        guard let object = (try? JSONValue(parsing: Array(request.utf8)))?.object else { return Self.failure("a request is one JSON object") }
        do {
            let action = try await ActionRequest.action(object, image: await sessionOperator.camera.image, camera: await sessionOperator.device)
            return Self.line(try await sessionOperator.perform(action).record)
        } catch let error as RequestError {
            return Self.failure(error.message)
        } catch {
            return Self.failure("\(error)")
        }
    }

    private static func failure(_ message: String) -> String {
        line(["error": .string(message)] as JSONValue)
    }

    private static func line(_ record: some Encodable) -> String {
        String(decoding: WireJSON.bytes(record), as: UTF8.self)
    }
}

@Suite("A transport outside the server", .hangGuard(minutes: 3))
struct JSONLinesTransportTests {
    @Test("Requests become actions, outcomes and events the words the API sends, and a bad request one sentence")
    func transportSpeaksTheWire() async throws {
        let operated = try OperatorFlowTests.Operated()
        let transport = JSONLinesTransport(sessionOperator: operated.operating)
        let (requests, feed) = AsyncStream.makeStream(of: String.self)
        for line in [#"{"action": "countdown", "seconds": 1}"#, #"{"action": "capture"}"#, #"{"action": "fly"}"#, "not json"] {
            feed.yield(line)
        }
        feed.finish()
        let sent = Mutex<[String]>([])
        let driving = operated.drivingTheClock()
        await transport.serve(requests) { line in sent.withLock { $0.append(line) } }
        driving.cancel()
        let lines = sent.withLock { $0 }
        #expect(lines.contains(#"{"event":"countdown","seconds_left":1,"version":1}"#), "\(lines)")
        #expect(lines.contains(#"{"early":false,"outcome":"countdown_ended","version":1}"#), "\(lines)")
        #expect(lines.contains { $0.contains(#""outcome":"photos""#) && $0.contains(#""id":1"#) }, "\(lines)")
        #expect(lines.contains { $0.contains("there is no action \\\"fly\\\"") }, "\(lines)")
        #expect(lines.contains(#"{"error":"a request is one JSON object"}"#), "\(lines)")
        #expect(try operated.saved().count == 1)
    }
}
