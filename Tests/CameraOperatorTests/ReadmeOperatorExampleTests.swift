import CameraKit
import CameraOperator
import PhotoLibrary
import Testing
import TestSupport

@Suite("The README's operator example", .hangGuard(minutes: 2))
struct ReadmeOperatorExampleTests {
    @Test("runs as written (with a fakesink, short countdowns and a library of its own)")
    func operatorExample() async throws {
        let folder = try TemporaryFolder()
        let camera = try DeviceDiscovery.device(named: "test")
        let session = CaptureSession()
        try await session.configure { configuration in
            configuration.device = camera
            configuration.preview = PreviewConfiguration(sink: "fakesink", showsText: true)
        }
        try await session.start()
        let library = try PhotoLibrary(folder: folder.url.path)
        let booth = SessionOperator(camera: session, delivery: try PhotoDelivery(library: library, pictureCount: nil),
                                    device: camera, albums: ["booth"])
        var settings = PhotoSettings()
        settings.thumbnailMaximumSide = ShotComposition.cellWidth   // the thumbnails are what is composed
        for _ in 1...4 {
            _ = try await booth.perform(.countdown(seconds: 0.1))    // large on the preview
            _ = try await booth.perform(.takePhoto(settings))        // into the library
        }
        guard case .composed(let strip) = try await booth.perform(.compose(layout: .strip, quality: 90, albums: ["booth"])) else {
            Issue.record("nothing was composed")
            return
        }
        _ = try await booth.perform(.stop)
        let photos = try PhotoLibrary(folder: folder.url.path).photos()
        #expect(photos.count == 5 && photos.allSatisfy { $0.albums == ["booth"] })
        #expect(strip.libraryPhoto?.id == photos.map(\.id).max() && strip.path.hasPrefix(folder.url.path))
    }
}
