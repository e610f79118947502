import CameraKit
import GStreamer
import Synchronization
import Testing
import TestSupport

/// An output of a program's own, outside CameraKit, as ARCHITECTURE.md's recipe has it: a
/// branch that counts the frames that reach it.
final class FrameCounter: CustomOutput {
    let counted = Atomic<Int>(0)
    let detached = Atomic<Bool>(false)

    func branch(in layout: SessionPipeline) -> String? {
        "split. ! queue ! fakesink name=frame_counter sync=false"
    }

    func attach(to graph: SessionGraph) throws(CaptureError) {
        guard let pad = graph.element(named: "frame_counter")?.staticPad(named: "sink") else {
            throw CaptureError(.pipeline, "the frame counter's sink is missing")
        }
        _ = pad.addProbe(.buffer) { [self] _ in
            counted.add(1, ordering: .relaxed)
            return .pass
        }
    }

    func detach() {
        detached.store(true, ordering: .relaxed)
    }
}

@Suite("An output added outside CameraKit", .hangGuard(minutes: 2))
struct CustomOutputTests {
    @Test("An added output's branch runs in the session's pipeline, sees the camera's frames, and is let go as the session stops")
    func frameCounter() async throws {
        var configuration = SessionConfiguration()
        configuration.device = try DeviceDiscovery.device(named: "test")
        configuration.format = FormatRequest(width: 320, height: 240, frameRate: Fraction(30))
        let session = CaptureSession(configuration: configuration)
        let counter = FrameCounter()
        session.add(counter)
        try await session.start()
        #expect(try await session.pipelineDescription().contains("fakesink name=frame_counter"))
        #expect(await until { counter.counted.load(ordering: .relaxed) >= 10 }, "the counter sees frames")
        await session.stop()
        let (counted, detached) = (counter.counted.load(ordering: .relaxed), counter.detached.load(ordering: .relaxed))
        #expect(detached, "let go as the session stopped")
        #expect(counted <= session.cameraFrameCount, "no more frames than the camera made: \(counted) of \(session.cameraFrameCount)")
    }
}
