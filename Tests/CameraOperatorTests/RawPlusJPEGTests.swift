import CameraKit
import CameraOperator
import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// A DSLR set to RAW+JPEG: one photo in the library, two files.
@Suite("RAW+JPEG from a DSLR: one photo, two files", .startsPrograms, .hangGuard(minutes: 2))
struct RawPlusJPEGTests {
    /// A running session on a scripted DSLR that deletes its photos from the card once kept.
    static func running() async throws -> (ScriptedDSLR, CaptureSession, CaptureDevice) {
        let camera = ScriptedDSLR()
        var configuration = SessionConfiguration()
        configuration.device = .gphoto2(model: camera.model, port: camera.port)
        configuration.deletesFromCameraCard = true
        let session = CaptureSession(configuration: configuration, tetheredCameras: camera)
        try await session.start()
        return (camera, session, configuration.device)
    }

    @Test("The RAW file is kept beside the JPEG byte for byte, told in the photo's record, leaves the card only once both are kept, and goes with the photo when it is deleted")
    func keptBeside() async throws {
        let (camera, session, device) = try await Self.running()
        let folder = try TemporaryFolder()
        let taker = SessionOperator(camera: session, delivery: try PhotoDelivery(library: PhotoLibrary(folder: folder.url.path), pictureCount: nil),
                                    device: device)
        let library = try PhotoLibrary(folder: folder.url.path)

        let jpeg = try await ScriptedDSLR.jpeg(color: 0x60_8040, width: 900, height: 600)
        let raw = [UInt8]("NIKON RAW, as the camera wrote it".utf8) + (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        // The camera names the RAW file first and tells of its JPEG after, as Nikon and Canon bodies do.
        camera.willShoot([("DSC_0042.NEF", raw), ("DSC_0042.JPG", jpeg)])
        guard case .photos(let shots) = try await taker.perform(.takePhoto(PhotoSettings())) else {
            Issue.record("no photo was taken")
            return
        }
        let kept = try #require(shots.first?.delivered?.libraryPhoto)
        #expect(try library.contents(of: kept) == jpeg, "the JPEG is the photo")
        let rawPath = try #require(kept.rawPath, "the RAW file is kept with it")
        #expect(rawPath.hasSuffix(".nef") && rawPath.contains("/raw/"), "\(rawPath)")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: rawPath))) == raw, "byte for byte")
        #expect(shots.first?.delivered?.record.rawPath == rawPath)
        #expect(try library.photos().map(\.id) == [kept.id], "one photo, not two")
        #expect(camera.cardFiles.isEmpty, "both files left the card once kept")

        _ = try await taker.perform(.stop)
        try library.delete(id: kept.id)
        #expect(!FileManager.default.fileExists(atPath: rawPath), "deleted with its photo")
        // An index lost: the photo is found again with its RAW file. Its JPEG removed by hand: the
        // RAW file, the camera's original, is left where it is.
        camera.willShoot([("DSC_0043.NEF", raw), ("DSC_0043.JPG", jpeg)])
        try await session.start()
        guard case .photos(let again) = try await taker.perform(.takePhoto(PhotoSettings())),
              let second = again.first?.delivered?.libraryPhoto, let secondRaw = second.rawPath else {
            Issue.record("no second photo with its RAW file")
            return
        }
        _ = try await taker.perform(.stop)
        for name in ["library.sqlite", "library.sqlite-wal", "library.sqlite-shm"] { try? FileManager.default.removeItem(atPath: folder.path(name)) }
        let reindexed = try PhotoLibrary(folder: folder.url.path).photos()
        #expect(reindexed.map(\.rawPath) == [secondRaw], "\(reindexed)")
        try FileManager.default.removeItem(atPath: second.path)
        #expect(try PhotoLibrary(folder: folder.url.path).photos().isEmpty)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: secondRaw))) == raw, "the RAW file stays")
    }

    @Test("Kept as a copy alone (no library), a RAW+JPEG shot stays on the card with --delete-from-card: the copy holds no RAW file")
    func copyKeepsCard() async throws {
        let (camera, session, device) = try await Self.running()
        let folder = try TemporaryFolder()
        let copy = OutputPattern(folder.path("copy.jpg"))
        let taker = SessionOperator(camera: session, delivery: try PhotoDelivery(library: nil, copy: .pattern(copy), pictureCount: 1),
                                    device: device)
        let jpeg = try await ScriptedDSLR.jpeg(color: 0x30_3030, width: 600, height: 400)
        camera.willShoot([("DSC_0050.JPG", jpeg), ("DSC_0050.NEF", [7, 7, 7])])
        guard case .photos(let shots) = try await taker.perform(.takePhoto(PhotoSettings())) else {
            Issue.record("no photo was taken")
            return
        }
        #expect(shots.first?.delivered?.copy == folder.path("copy.jpg"))
        #expect(camera.cardFiles == ["DSC_0050.JPG", "DSC_0050.NEF"], "both stay on the card")
        _ = try await taker.perform(.stop)
    }

    @Test("A camera set to RAW only: the shot is refused in one sentence, and its file stays on the card")
    func rawOnly() async throws {
        let (camera, session, _) = try await Self.running()
        camera.willShoot([("DSC_0044.NEF", [1, 2, 3])])
        let error = await #expect(throws: CaptureError.self) { try await session.photoOutput.capture() }
        #expect(error?.message.contains("the camera wrote DSC_0044.NEF and no JPEG beside it, so camctl kept nothing (it stays on the card); set the camera's image format to JPEG or RAW+JPEG") == true,
                "\(String(describing: error))")
        #expect(camera.cardFiles == ["DSC_0044.NEF"])
        await session.stop()
    }
}
