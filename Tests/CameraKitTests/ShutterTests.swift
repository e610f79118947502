@testable import CameraKit
import GStreamer
import TestSupport
import Testing

@Suite("The shutter on the preview", .hangGuard(minutes: 2))
struct ShutterTests {
    @Test("A photo dims the preview at once, for two frames, then it is bright again")
    func shutterDims() async throws {
        var configuration = SessionConfiguration()
        configuration.format = FormatRequest(width: 320, height: 240, frameRate: Fraction(5))  // two frames: 400 ms
        configuration.preview = PreviewConfiguration(sink: "fakesink", showsShutter: true)
        (configuration.framesDroppedAfterStart, configuration.capturesPhotos) = (0, false)
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        let preview = session.previewOutput
        #expect(preview.shutterBrightness == 0)
        let start = ContinuousClock.now
        preview.showShutter()
        #expect(try #require(preview.shutterBrightness) < 0, "dimmed at once")
        #expect(await until { preview.shutterBrightness == 0 }, "bright again")
        // Never brighter sooner than two frames' time (a lower bound a busy machine only lengthens).
        let dimmed = ContinuousClock.now - start
        #expect(dimmed >= .milliseconds(400), "dimmed for two frames: \(dimmed)")
        await session.stop()
    }
}
