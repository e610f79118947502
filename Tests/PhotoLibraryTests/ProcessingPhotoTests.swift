import CSQLite
import Foundation
import PhotoLibrary
import TestSupport
import Testing

@Suite("Photos kept as a proxy and finished later", .hangGuard(minutes: 3))
struct ProcessingPhotoTests {
    static let heic: [UInt8] = [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [UInt8](repeating: 7, count: 100)

    static func pending(at seconds: TimeInterval = 1_800_000_000) -> NewPhoto {
        var photo = PhotoLibraryTests.photo(at: seconds)
        photo.pending = [UInt8](repeating: 42, count: 1000)
        return photo
    }

    static func files(_ folder: TemporaryFolder, _ sub: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.url.path + sub)) ?? []).sorted()
    }

    @Test("A proxy is processing with its spool; finishing puts the final file in its place and removes proxy and spool")
    func finish() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.url.path)
        let proxy = try library.add(Self.pending())
        #expect(proxy.isProcessing && proxy.path.hasSuffix(".jpg"))
        #expect(try library.processingPhotos().map(\.id) == [proxy.id])
        #expect(try library.pendingData(of: proxy, limit: 1 << 20) == [UInt8](repeating: 42, count: 1000))
        let final = try library.finish(id: proxy.id, data: Self.heic, codec: "hevc")
        #expect(!final.isProcessing && final.codec == "hevc" && final.byteCount == Self.heic.count && final.id == proxy.id)
        #expect(final.path == proxy.path.replacingOccurrences(of: ".jpg", with: ".heic"))
        #expect(final.thumbnailPath == proxy.thumbnailPath && final.albums == ["booth"])
        #expect(!FileManager.default.fileExists(atPath: proxy.path) && Self.files(folder, "/spool").isEmpty)
        #expect(try library.processingPhotos().isEmpty)
        #expect(try library.finish(id: proxy.id, data: [1, 2, 3], codec: "hevc") == final, "a final photo is not finished twice")
    }

    @Test("A photo deleted by another process before it is finished stays deleted: no final file is written")
    func deletedMeanwhile() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.url.path), other = try PhotoLibrary(folder: folder.url.path)
        let proxy = try library.add(Self.pending())
        try other.delete(id: proxy.id)
        #expect(throws: LibraryError.self) { try library.finish(id: proxy.id, data: Self.heic, codec: "hevc") }
        #expect(Self.files(folder).filter { $0.hasSuffix(".heic") || $0.hasSuffix(".jpg") }.isEmpty)
        #expect(try PhotoLibrary(folder: folder.url.path).photos().isEmpty, "nothing comes back when the library is opened again")
    }

    @Test("Settling keeps the proxy as the photo; deleting a processing photo removes its spool too")
    func settleAndDelete() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.url.path)
        let kept = try library.settle(id: try library.add(Self.pending()).id)
        #expect(!kept.isProcessing && kept.codec == "jpeg" && FileManager.default.fileExists(atPath: kept.path))
        let removed = try library.add(Self.pending(at: 1_800_000_100))
        try library.delete(id: removed.id)
        let left = try library.photos().map(\.id)
        #expect(Self.files(folder, "/spool").isEmpty && left == [kept.id])
    }

    @Test("Opening after a process ended mid-way: a final file before its row is not a new photo, a proxy after it is removed, a lone spool too")
    func reconcile() async throws {
        let folder = try TemporaryFolder()
        var library = try PhotoLibrary(folder: folder.url.path)
        let processing = try library.add(Self.pending())
        let finished = try library.add(Self.pending(at: 1_800_000_100))
        try library.finish(id: finished.id, data: Self.heic, codec: "hevc")
        // Ended after the final file was written, before the row said so:
        try Data(Self.heic).write(to: URL(fileURLWithPath: processing.path.replacingOccurrences(of: ".jpg", with: ".heic")))
        // Ended after the row said so, before the proxy was removed:
        try Data(PhotoLibraryTests.jpeg(width: 640, height: 480)).write(to: URL(fileURLWithPath: finished.path))
        // A spool of no photo:
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder.path("spool/20260101-000000.000-aaaaaa.pending")))
        library = try PhotoLibrary(folder: folder.url.path)
        #expect(library.reconciliation.indexed.isEmpty, "\(library.reconciliation)")
        #expect(library.reconciliation.removedLeftovers == 2)
        #expect(try library.photos().count == 2)
        #expect(!FileManager.default.fileExists(atPath: finished.path))
        #expect(Self.files(folder, "/spool") == [processing.fileName.replacingOccurrences(of: ".jpg", with: ".pending")])
        let final = try library.finish(id: processing.id, data: Self.heic, codec: "hevc")
        #expect(final.codec == "hevc" && Self.files(folder).filter { $0.hasSuffix(".jpg") }.isEmpty)
    }

    @Test("An index made before photos were finished later gains the state column, its photos final")
    func migration() async throws {
        let folder = try TemporaryFolder()
        var handle: OpaquePointer?
        #expect(sqlite3_open(folder.path("library.sqlite"), &handle) == SQLITE_OK)
        let old = """
            CREATE TABLE photos (id INTEGER PRIMARY KEY AUTOINCREMENT, file TEXT NOT NULL UNIQUE, thumbnail TEXT,
                captured_at TEXT NOT NULL, device TEXT NOT NULL, width INTEGER NOT NULL, height INTEGER NOT NULL,
                codec TEXT NOT NULL, orientation INTEGER NOT NULL DEFAULT 1, byte_count INTEGER NOT NULL);
            INSERT INTO photos (file, captured_at, device, width, height, codec, byte_count)
                VALUES ('20260101-000000.000-aaaaaa.jpg', '2026-01-01T00:00:00.000Z', 'old', 640, 480, 'jpeg', 24);
            """
        #expect(sqlite3_exec(handle, old, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        try Data(PhotoLibraryTests.jpeg(width: 640, height: 480)).write(to: URL(fileURLWithPath: folder.path("20260101-000000.000-aaaaaa.jpg")))
        let library = try PhotoLibrary(folder: folder.url.path)
        #expect(try library.photos().map(\.isProcessing) == [false])
        #expect(try library.add(Self.pending()).isProcessing)
    }
}
