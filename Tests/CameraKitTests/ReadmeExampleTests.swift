import CameraKit
import Foundation
import TestSupport
import Testing

@Suite("The README's embedding example", .hangGuard(minutes: 3))
struct ReadmeExampleTests {
    @Test("runs as written")
    func embeddingExample() async throws {
        let folder = try TemporaryFolder()
        let session = CaptureSession()
        try await session.configure { configuration in
            configuration.device = try DeviceDiscovery.device(named: "test")   // or nil: the first camera
            configuration.format = .high                                        // 1920x1080 at 30 fps
            configuration.videoData = VideoDataConfiguration(pixelFormat: "RGB")
        }
        try await session.start()
        let photo = try await session.photoOutput.capture()       // the frame on screen now, as JPEG with EXIF
        try Data(photo.fileData).write(to: URL(fileURLWithPath: folder.path("photo.jpg")))
        var image = ImageSettings()
        image.filters = [.sepia]
        image.aspectRatio = try AspectRatio(parsing: "1:1")
        try await session.changeImage(to: image)                 // live: the camera keeps running
        let square = try await session.photoOutput.capture()      // 1080x1080, sepia
        var widths: [Int] = []
        for await frame in session.videoDataOutput.frames() {     // bounded; a slow consumer drops, counted
            try frame.withUnsafeBytes { pixels in widths.append(frame.info?.width ?? 0); _ = pixels[0] }
            break
        }
        await session.stop()
        #expect(widths == [1080])
        #expect((square.width, square.height) == (1080, 1080))
        #expect(FileManager.default.fileExists(atPath: folder.path("photo.jpg")))
    }
}
