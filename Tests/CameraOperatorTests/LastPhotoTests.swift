import CameraKit
import CameraOperator
import GStreamer
import PhotoLibrary
import Testing
import TestSupport

/// A running 640x480 test camera whose preview (with its picture element) writes its frames,
/// driven by an operator that delivers into a library of its own.
struct PreviewedCamera {
    let camera: SessionOperator
    let frames: PreviewFrames
    let library: TemporaryFolder

    init(_ name: String, clock: any Clock<Duration> = ContinuousClock()) async throws {
        library = try TemporaryFolder()
        frames = try PreviewFrames(width: 640, height: 480)
        var configuration = SessionConfiguration()
        configuration.device = try DeviceDiscovery.device(named: name)
        configuration.format = FormatRequest(width: 640, height: 480, frameRate: Fraction(10))
        configuration.preview = PreviewConfiguration(sink: frames.sink, maximumWidth: 640, maximumHeight: 480, showsLastPhoto: true,
                                                     showsPictures: true)
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        let delivery = try PhotoDelivery(library: PhotoLibrary(folder: library.url.path), pictureCount: nil)
        camera = SessionOperator(camera: session, delivery: delivery, device: configuration.device, clock: clock)
    }
}

@Suite("The last photo in the preview's corner", .hangGuard(minutes: 2))
struct LastPhotoTests {
    @Test("After a photo the preview shows its thumbnail in the lower left corner, a fifth of its width, and keeps it after a camera switch")
    func lastPhotoCorner() async throws {
        let previewed = try await PreviewedCamera("test:white")
        let (camera, frames) = (previewed.camera, previewed.frames)
        guard case .photos(let shots) = try await camera.perform(.takePhoto(PhotoSettings())) else {
            Issue.record("no photo was taken")
            return
        }
        #expect(shots.first?.photo.thumbnailData.isEmpty == false)
        // A black camera now: only the white photo's thumbnail is bright. 640 / 5 = 128 wide, 96
        // high (its 4:3), 16 from the left and bottom edges.
        _ = try await camera.perform(.switchCamera(to: try DeviceDiscovery.device(named: "test:black")))
        let corner = try await frames.waitForBrightArea { rows, columns in rows.count < 200 }
        _ = try await camera.perform(.stop)
        withExtendedLifetime(previewed) {}  // its library folder stays until the photos are in
        let area = try #require(corner, "the thumbnail is drawn on the black picture")
        #expect(abs(area.columns.lowerBound - 16) <= 1 && abs(area.columns.upperBound - 143) <= 1, "\(area)")
        #expect(abs(area.rows.lowerBound - 368) <= 1 && abs(area.rows.upperBound - 463) <= 1, "\(area)")
    }
}

@Suite("The booth's result on the preview", .hangGuard(minutes: 2))
struct BoothResultTests {
    @Test("The composed strip is shown over the whole preview, fitted and centred, until cut short")
    func resultShown() async throws {
        let previewed = try await PreviewedCamera("test:black")
        let (booth, frames) = (previewed.camera, previewed.frames)
        var settings = PhotoSettings()
        settings.thumbnailMaximumSide = ShotComposition.cellWidth
        for _ in 1...2 { _ = try await booth.perform(.takePhoto(settings)) }
        _ = try await booth.perform(.compose(layout: .strip, quality: 90, albums: []))
        let showing = Task { try await booth.perform(.showResult(seconds: 60)) }
        // Black shots on white margins, 672x1008, fitted into 608x448 and centred: 298x448 at (171, 16).
        let area = try await frames.waitForBrightArea { rows, _ in rows.count > 300 }
        _ = try await booth.perform(.cutShort)
        guard case .resultShown(early: true) = try await showing.value else {
            Issue.record("the result was not cut short")
            return
        }
        _ = try await booth.perform(.stop)
        withExtendedLifetime(previewed) {}  // its library folder stays until the photos are in
        let strip = try #require(area, "the strip is drawn")
        #expect(abs(strip.columns.lowerBound - 171) <= 2 && abs(strip.columns.upperBound - 468) <= 2, "\(strip)")
        #expect(abs(strip.rows.lowerBound - 16) <= 2 && abs(strip.rows.upperBound - 463) <= 2, "\(strip)")
    }
}
