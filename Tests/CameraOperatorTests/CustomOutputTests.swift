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
    /// A session of the test camera at 320x240, started with `output` added.
    static func started(with output: any CustomOutput) async throws -> CaptureSession {
        var configuration = SessionConfiguration()
        configuration.device = try DeviceDiscovery.device(named: "test")
        configuration.format = FormatRequest(width: 320, height: 240, frameRate: Fraction(30))
        let session = CaptureSession(configuration: configuration)
        session.add(output)
        try await session.start()
        return session
    }

    @Test("An added output's branch runs in the session's pipeline, sees the camera's frames, and is let go as the session stops")
    func frameCounter() async throws {
        let counter = FrameCounter()
        let session = try await Self.started(with: counter)
        #expect(try await session.pipelineDescription().contains("fakesink name=frame_counter"))
        #expect(await until { counter.counted.load(ordering: .relaxed) >= 10 }, "the counter sees frames")
        await session.stop()
        let (counted, detached) = (counter.counted.load(ordering: .relaxed), counter.detached.load(ordering: .relaxed))
        #expect(detached, "let go as the session stopped")
        #expect(counted <= session.cameraFrameCount, "no more frames than the camera made: \(counted) of \(session.cameraFrameCount)")
    }
}

/// An output that notes every step of its life, in order.
final class StepRecorder: CustomOutput {
    let steps = Mutex<[String]>([])

    private func note(_ step: String) { steps.withLock { $0.append(step) } }

    func branch(in layout: SessionPipeline) -> String? { "split. ! queue ! fakesink name=step_recorder sync=false" }
    func prepare(for layout: SessionPipeline) async throws(CaptureError) { note("prepare") }
    func attach(to graph: SessionGraph) throws(CaptureError) { note("attach") }
    func activate(in graph: SessionGraph, layout: SessionPipeline) { note("activate") }
    func cameraChanged(to source: Bin, layout: SessionPipeline) { note("camera \(layout.configuration.device.id)") }
    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) { note("image") }
    func detach() { note("detach") }
    func finish() async { note("finish") }
}

extension CustomOutputTests {
    @Test("An added output takes every step the session's own outputs take: prepared, attached, activated, told of a new camera and a new picture, let go, finished")
    func lifeCycle() async throws {
        let recorder = StepRecorder()
        let session = try await Self.started(with: recorder)
        var image = ImageSettings()
        image.zoom = 2
        try await session.changeImage(to: image)
        let ball = try DeviceDiscovery.device(named: "test:ball")
        try await session.switchDevice(to: ball)
        await session.stop()
        // Preparing runs beside the pipeline's start, and attaching once it is built: either comes first.
        let steps = recorder.steps.withLock { $0 }
        #expect(Set(steps.prefix(2)) == ["prepare", "attach"] && Array(steps.dropFirst(2)) == ["activate", "image", "camera \(ball.id)", "detach", "finish"],
                "\(steps)")
    }
}
