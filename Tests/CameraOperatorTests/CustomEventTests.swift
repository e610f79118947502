import CameraOperator
import JSON
import OperatorWire
import Testing

/// Events of one's own (an output's `motion`), told through the operator as its own are.
@Suite("Events of one's own")
struct CustomEventTests {
    @Test("An event told to the operator reaches its readers, and is written and read back as the wire's own events are; a name of camctl's own is refused")
    func toldAndRead() async throws {
        let operated = try OperatorFlowTests.Operated()
        let told = OperatorFlowTests.events(of: operated.operating) { if case .custom = $0 { true } else { false } }
        try operated.operating.tell("motion", ["score": .number(0.5), "region": .string("left")])
        let event = try #require(await told.value.last)
        #expect(event == .custom(name: "motion", fields: ["score": .number(0.5), "region": .string("left")]))
        let line = WireJSON.bytes(event.record)
        #expect(String(decoding: line, as: UTF8.self) == #"{"event":"motion","region":"left","score":0.5,"version":1}"#)
        #expect(try WireJSON.decode(EventRecord.self, from: line) == event.record, "read back as the same event")
        for name in ["photo", "error", ""] {
            #expect(throws: OperatorError.self, "\"\(name)\"") { try operated.operating.tell(name) }
        }
    }
}
