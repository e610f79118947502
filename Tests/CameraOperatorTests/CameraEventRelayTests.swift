import CameraKit
import CameraOperator
import GStreamer
import OperatorWire
import Testing

/// What happens to the camera reaches front ends on the operator's one stream, in the order it
/// happens among the operator's own events.
@Suite("The camera's events on the operator's stream")
struct CameraEventRelayTests {
    @Test("A camera lost and back, around a photo taken, is told in that order, with the wire's records; the session's own steps are not told")
    func inOrder() async throws {
        let operated = try OperatorFlowTests.Operated()
        let told = OperatorFlowTests.events(of: operated.operating) { $0 == .stopped }
        let lost = CaptureError(.interrupted, "the camera was unplugged")
        operated.camera.tell(.running)
        operated.camera.tell(.interrupted(lost))
        operated.camera.tell(.resumed)
        _ = try await operated.operating.perform(.takePhoto(PhotoSettings()))
        operated.camera.tell(.reconfigured)
        operated.camera.tell(.switchedDevice(to: "Other camera", format: CaptureFormat(width: 32, height: 24, frameRate: Fraction(30))))
        _ = try await operated.operating.perform(.stop)
        let events = await told.value
        let names = events.map { $0.record.name }
        #expect(names == ["interrupted", "resumed", "photo", "switched", "stopped"])
        #expect(events.first?.record == .interrupted(message: "the camera was unplugged"))
        #expect(events.first?.record(wording: { "in other words: \($0.message)" }) == .interrupted(message: "in other words: the camera was unplugged"),
                "a front end words the camera's failure in its own terms")
    }
}
