import CameraKit
import Foundation
import GStreamer
import TestSupport
import Testing

@Suite("The countdown drawn over the preview", .timeLimit(.minutes(3)))
struct CountdownTextTests {
    /// The bright pixels of a recent grey frame the preview wrote (the newest but one: the newest
    /// may be half written), as rows and columns; `nil` while no frame shows any.
    private static func drawn(in folder: TemporaryFolder, width: Int, height: Int) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
        guard let frames = try? FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted(),
              let recent = frames.dropLast().last,
              let data = try? Data(contentsOf: folder.url.appendingPathComponent(recent)),  // the sink may have removed it meanwhile
              data.count == width * height else { return nil }
        let pixels = [UInt8](data)
        var rows: [Int] = [], columns = Set<Int>()
        for row in 0..<height {
            var lit = false
            for column in 0..<width where pixels[row * width + column] > 160 {
                lit = true
                columns.insert(column)
            }
            if lit { rows.append(row) }
        }
        guard let top = rows.first, let bottom = rows.last, let left = columns.min(), let right = columns.max() else { return nil }
        return (top...bottom, left...right)
    }

    @Test("Two digits are drawn whole and centred, a sizeable part of the picture, at every preview size", arguments: [
        (320, 240), (1280, 720), (3840, 2160), (480, 640),
    ])
    func wholeDigits(width: Int, height: Int) async throws {
        let folder = try TemporaryFolder()
        var configuration = SessionConfiguration()
        configuration.device = try DeviceDiscovery.device(named: "test:black")
        configuration.format = FormatRequest(width: width, height: height, frameRate: Fraction(10))
        configuration.capturesPhotos = false
        configuration.preview = PreviewConfiguration(
            sink: "videoconvert ! video/x-raw,format=GRAY8 ! multifilesink location=\(folder.path("frame-%05d.grey")) max-files=3",
            maximumWidth: width, maximumHeight: height, showsText: true)
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        session.previewOutput.overlayText = "10"
        // The text shows from the next frame on; a loaded machine may take a while to write it.
        var found: (rows: ClosedRange<Int>, columns: ClosedRange<Int>)?
        let deadline = ContinuousClock.now + .seconds(15)
        while found == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(300))
            found = Self.drawn(in: folder, width: width, height: height)
        }
        await session.stop()
        let drawn = try #require(found, "the digits are drawn")
        #expect(drawn.rows.lowerBound > 0 && drawn.rows.upperBound < height - 1, "no lit pixel on the top or bottom row: \(drawn)")
        #expect(drawn.columns.lowerBound > 0 && drawn.columns.upperBound < width - 1, "no lit pixel on the left or right column: \(drawn)")
        #expect(drawn.rows.count * 4 > height, "the digits are more than a quarter of the height: \(drawn)")
        let middle = (drawn.columns.lowerBound + drawn.columns.upperBound) / 2
        #expect(abs(middle - width / 2) < width / 20, "centred: \(drawn)")
    }
}
