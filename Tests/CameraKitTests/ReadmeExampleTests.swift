import CameraKit
import Foundation
import TestSupport
import Testing

@Suite("The README's embedding example", .hangGuard(minutes: 3))
struct ReadmeExampleTests {
    @Test("runs as written")
    func embeddingExample() async throws {
        // What runs below is the README's code, but for the photo's place (ReadmeCode).
        let differences = try ReadmeCode.differences(heading: "## Embedding the library", block: 1, copyIn: #filePath, changes: [
            ReadmeCode.Change(#"URL(fileURLWithPath: "photo.jpg")"#, #"URL(fileURLWithPath: folder.path("photo.jpg"))"#),
        ])
        #expect(differences.isEmpty, "the copy below is not the README's code: \(differences.joined(separator: "; "))")

        let folder = try TemporaryFolder()
        // The example's own `print` lines run, into this, for the checks after it.
        let printed = ReadmeCode.Printed()
        func print(_ items: Any...) { printed.append(items) }

        // README: begin (README.md, "Embedding the library", its first Swift block)
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
        for await frame in session.videoDataOutput.frames() {     // bounded; a slow consumer drops, counted
            try frame.withUnsafeBytes { pixels in print(frame.info!.width, pixels[0]) }   // read in place
            break
        }
        await session.stop()
        // README: end

        #expect((photo.width, photo.height) == (1920, 1080))
        #expect(FileManager.default.contents(atPath: folder.path("photo.jpg")).map { [UInt8]($0) } == photo.fileData)
        #expect((square.width, square.height) == (1080, 1080))
        #expect(printed.lines.count == 1 && printed.lines.first?.first == "1080", "one frame, 1080 wide: \(printed.lines)")
    }
}
