import CameraKit
import Foundation
import GStreamer
import TestSupport
import Testing

@Suite("The countdown drawn over the preview", .hangGuard(minutes: 3))
struct CountdownTextTests {
    @Test("Two digits are drawn whole and centred, a sizeable part of the picture, at every preview size", arguments: [
        (320, 240), (1280, 720), (3840, 2160), (480, 640),
    ])
    func wholeDigits(width: Int, height: Int) async throws {
        let frames = try PreviewFrames(width: width, height: height)
        var configuration = SessionConfiguration()
        configuration.device = try DeviceDiscovery.device(named: "test:black")
        configuration.format = FormatRequest(width: width, height: height, frameRate: Fraction(10))
        configuration.capturesPhotos = false
        configuration.preview = PreviewConfiguration(
            sink: frames.sink, maximumWidth: width, maximumHeight: height, showsText: true)
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        session.previewOutput.overlayText = "10"
        // The text shows from the next frame on; a loaded machine may take a while to write it.
        let found = try await frames.waitForBrightArea()
        await session.stop()
        let drawn = try #require(found, "the digits are drawn")
        #expect(drawn.rows.lowerBound > 0 && drawn.rows.upperBound < height - 1, "no lit pixel on the top or bottom row: \(drawn)")
        #expect(drawn.columns.lowerBound > 0 && drawn.columns.upperBound < width - 1, "no lit pixel on the left or right column: \(drawn)")
        #expect(drawn.rows.count * 4 > height, "the digits are more than a quarter of the height: \(drawn)")
        let middle = (drawn.columns.lowerBound + drawn.columns.upperBound) / 2
        #expect(abs(middle - width / 2) < width / 20, "centred: \(drawn)")
    }
}
