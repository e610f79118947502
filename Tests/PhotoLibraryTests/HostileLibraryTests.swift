import Foundation
@testable import PhotoLibrary
import TestSupport
import Testing

/// A library folder and index that someone else wrote into: tampered rows, files that are not
/// photos, a commit that fails. Only the library's own files are ever touched.
@Suite("A hostile library folder and index", .hangGuard(minutes: 3))
struct HostileLibraryTests {
    static func files(in folder: TemporaryFolder) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path))
    }

    @Test("A tampered row never makes the library read or delete a file outside it")
    func tamperedRows() async throws {
        let folder = try TemporaryFolder(), outside = try TemporaryFolder()
        let victim = outside.path("precious.txt")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: victim))
        let library = try PhotoLibrary(folder: folder.url.path)
        let photo = try library.add(PhotoLibraryTests.photo(at: 1_800_000_000))
        let database = try Database(path: folder.path("library.sqlite"))
        try database.query("UPDATE photos SET thumbnail = ? WHERE id = ?", [.text("../" + String(repeating: "../", count: 8) + victim), .integer(photo.id)])
        try database.query("""
            INSERT INTO photos (file, captured_at, device, width, height, codec, byte_count)
            VALUES (?, '2027-01-01T00:00:00.000Z', 'x', 1, 1, 'jpeg', 1)
            """, [.text(victim)])
        #expect(try library.photos().map(\.id) == [photo.id], "the row naming a path outside is not a photo")
        #expect(try library.photo(id: photo.id).thumbnailPath == nil)
        try library.delete(id: photo.id)
        #expect(FileManager.default.contents(atPath: victim) == Data("keep me".utf8))
        let reopened = try PhotoLibrary(folder: folder.url.path)
        #expect(try reopened.photos().isEmpty)
        #expect(try Database(path: folder.path("library.sqlite")).query("SELECT id FROM photos").isEmpty, "the damaged row was dropped")
        #expect(FileManager.default.fileExists(atPath: victim))
    }

    @Test("When the commit fails, the photo's files go too, and no later opening indexes them")
    func failedCommit() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.url.path)
        let before = try Self.files(in: folder)
        // A deferred foreign key that no row satisfies: the insert succeeds, the COMMIT fails.
        let database = try Database(path: folder.path("library.sqlite"))
        try database.execute("""
            CREATE TABLE blocker (photo_id INTEGER REFERENCES nowhere (id) DEFERRABLE INITIALLY DEFERRED);
            CREATE TABLE nowhere (id INTEGER PRIMARY KEY);
            CREATE TRIGGER block AFTER INSERT ON photos BEGIN INSERT INTO blocker VALUES (NEW.id + 1000); END;
            """)
        #expect(throws: LibraryError.self) { try library.add(PhotoLibraryTests.photo(at: 1_800_000_000)) }
        #expect(try Self.files(in: folder) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("thumbnails")).isEmpty)
        try database.execute("DROP TRIGGER block")
        let reopened = try PhotoLibrary(folder: folder.url.path)
        #expect(reopened.reconciliation.indexed.isEmpty)
        #expect(try reopened.photos().isEmpty)
    }

    @Test("Only files named as the library names photos, whole and regular, are indexed; the rest are named or left alone")
    func foreignFiles() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.url.path)
        let kept = try library.add(PhotoLibraryTests.photo(at: 1_800_000_000))
        // A crafted HEIC whose extents overflow, and a JPEG that is no picture, both named as photos.
        try Data(HostileBytes.overflowingHEIF).write(to: URL(fileURLWithPath: folder.path("20270115-080000.000-aaaaaa.heic")))
        try Data("not a jpeg".utf8).write(to: URL(fileURLWithPath: folder.path("20270115-080000.000-bbbbbb.jpg")))
        // A copy, and a link to the newest photo, as --output and --latest make them.
        try Data(PhotoLibraryTests.jpeg(width: 10, height: 10)).write(to: URL(fileURLWithPath: folder.path("copy-1.jpg")))
        try FileManager.default.createSymbolicLink(atPath: folder.path("latest.jpg"), withDestinationPath: kept.path)
        try FileManager.default.createSymbolicLink(atPath: folder.path("20270115-080000.000-cccccc.jpg"), withDestinationPath: kept.path)
        let reopened = try PhotoLibrary(folder: folder.url.path)
        #expect(reopened.reconciliation.indexed.isEmpty)
        #expect(Set(reopened.reconciliation.skipped) == [folder.path("20270115-080000.000-aaaaaa.heic"),
                                                          folder.path("20270115-080000.000-bbbbbb.jpg"),
                                                          folder.path("20270115-080000.000-cccccc.jpg")])
        #expect(try reopened.photos().map(\.id) == [kept.id])
        for name in ["copy-1.jpg", "latest.jpg", "20270115-080000.000-aaaaaa.heic"] {
            #expect(FileManager.default.fileExists(atPath: folder.path(name)), "\(name) is not the library's to remove")
        }
    }

    @Test("A locked index and a disk I/O error from a full disk are told with what to do")
    func indexFailures() async {
        let locked = LibraryError(DatabaseError(code: 5, message: "database is locked"), index: "/x/library.sqlite")  // SQLITE_BUSY
        #expect(locked.message.contains("locked by another program") && locked.message.contains("try again"), "\(locked.message)")
        let full = LibraryError(DatabaseError(code: 10, message: "disk I/O error", systemError: ENOSPC), index: "/x/library.sqlite")  // SQLITE_IOERR
        #expect(full.kind == .diskFull && full.message.contains("free some space"), "\(full.message)")
        let other = LibraryError(DatabaseError(code: 10, message: "disk I/O error", systemError: EIO), index: "/x/library.sqlite")
        #expect(other.kind == .ioError)
    }

    @Test("A library folder that is a file, and an index that is a folder, are named for what they are")
    func wrongKinds() async throws {
        let folder = try TemporaryFolder()
        try Data().write(to: URL(fileURLWithPath: folder.path("file")))
        let notFolder = #expect(throws: LibraryError.self) { try PhotoLibrary(folder: folder.path("file")) }
        #expect(notFolder?.message.contains("is a file, not a folder") == true, "\(notFolder?.message ?? "")")
        try FileManager.default.createDirectory(atPath: folder.path("lib/library.sqlite"), withIntermediateDirectories: true)
        let indexFolder = #expect(throws: LibraryError.self) { try PhotoLibrary(folder: folder.path("lib")) }
        #expect(indexFolder?.message.contains("is not a file") == true, "\(indexFolder?.message ?? "")")
        let empty = #expect(throws: LibraryError.self) { try PhotoLibrary(folder: "") }
        #expect(empty?.message.contains("empty") == true)
    }
}
