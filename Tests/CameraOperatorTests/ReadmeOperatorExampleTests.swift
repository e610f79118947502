import CameraKit
import CameraOperator
import PhotoLibrary
import Testing
import TestSupport

@Suite("The README's operator example", .hangGuard(minutes: 2))
struct ReadmeOperatorExampleTests {
    @Test("runs as written (with a fakesink, short countdowns and a library of its own)")
    func operatorExample() async throws {
        // What runs below is the README's code, but for the three changes its name says (ReadmeCode).
        let differences = try ReadmeCode.differences(heading: "## Embedding the library", block: 2, copyIn: #filePath, changes: [
            ReadmeCode.Change(#"PreviewConfiguration(sink: "autovideosink", showsText: true)"#, #"PreviewConfiguration(sink: "fakesink", showsText: true)"#),
            ReadmeCode.Change("PhotoLibrary(folder: PhotoLibrary.defaultFolder())", "PhotoLibrary(folder: folder.url.path)"),
            ReadmeCode.Change(".countdown(seconds: 3))", ".countdown(seconds: 0.1))"),
        ])
        #expect(differences.isEmpty, "the copy below is not the README's code: \(differences.joined(separator: "; "))")

        let folder = try TemporaryFolder()
        // The example's own `print` line runs, into this, for the checks after it.
        let printed = ReadmeCode.Printed()
        func print(_ items: Any...) { printed.append(items) }

        // README: begin (README.md, "Embedding the library", its second Swift block)
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
            _ = try await booth.perform(.countdown(seconds: 0.1))      // large on the preview
            _ = try await booth.perform(.takePhoto(settings))        // into the library
        }
        if case .composed(let strip) = try await booth.perform(.compose(layout: .strip, quality: 90, albums: ["booth"])) {
            print(strip.path, strip.libraryPhoto?.id ?? 0)
        }
        _ = try await booth.perform(.stop)
        // README: end

        let photos = try PhotoLibrary(folder: folder.url.path).photos()
        #expect(photos.count == 5 && photos.allSatisfy { $0.albums == ["booth"] }, "four shots and their strip")
        let said = try #require(printed.lines.first, "the strip was composed and printed")
        #expect(printed.lines.count == 1 && said.count == 2)
        #expect(said.first?.hasPrefix(folder.url.path) == true && said.last == photos.map(\.id).max().map(String.init), "\(said)")
    }
}
