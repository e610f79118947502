import Foundation
import Glibc
@testable import PhotoLibrary
import TestSupport
import Testing

/// The library owns a closed set of names: whatever else is in its folder, whatever a link or a
/// row points at, is never read, replaced or removed, and reading it changes nothing at all.
@Suite("The library touches only its own files", .hangGuard(minutes: 3))
struct OwnFilesTests {
    /// Every entry below `folder` (links not followed): a file's mode, size and modification time.
    static func snapshot(_ folder: String) -> [String: String] {
        var entries: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            var status = stat()
            guard lstat(folder + "/" + name, &status) == 0 else { continue }
            entries[name] = status.st_mode & S_IFMT == S_IFDIR ? "folder"
                : "\(status.st_mode) \(status.st_size) \(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)"
        }
        return entries
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Files a person or another program may keep in a library's folders, none named as the library names its own.
    static let foreignFiles = [
        "notes.txt", "IMG_0001.JPG", "20270115-080000.000-abcdef.png", "20270115-080000.000-ABCDEF.jpg", ".notes.tmp",
        ".report.pdf.123.456.tmp", ".20270115-080000.000-abcdef.jpg.tmp", "library.sqlite.bak",
        "thumbnails/notes.txt", "thumbnails/IMG_0001.jpg", "thumbnails/.notes.txt.1.2.tmp", "thumbnails/20270115-080000.000-abcdef.png",
        "thumbnails/.hidden", "spool/notes.txt", "spool/mine.pending", "spool/20270115-080000.000-abcdef.pending.bak",
        "spool/.mine.pending.1.2.tmp", "recordings/holiday.mp4", "recordings/mine.reserve", "recordings/notes.txt",
    ]

    @Test("Opening a library, to write or to read, leaves every file it did not name as they were")
    func foreignFilesStay() async throws {
        let folder = try TemporaryFolder()
        let root = folder.url.path
        do {
            let library = try PhotoLibrary(folder: root)
            try library.add(PhotoLibraryTests.photo(at: 1_800_000_000))
        }
        for name in Self.foreignFiles { try Self.write("mine: \(name)", to: folder.path(name)) }
        // The library's own leftovers beside them, which it does remove.
        let own = ["thumbnails/20270115-080000.000-zzzzzz.jpg", ".20270115-080000.000-zzzzzz.jpg.77.88.tmp",
                   "thumbnails/.20270115-080000.000-zzzzzz.jpg.77.88.tmp", "spool/20270115-080000.000-zzzzzz.pending",
                   "spool/.20270115-080000.000-zzzzzz.pending.77.88.tmp"]
        for name in own { try Self.write("leftover", to: folder.path(name)) }

        let reading = try PhotoLibrary(folder: root, forReading: true)
        #expect(try reading.photos().count == 1)
        for name in own { #expect(FileManager.default.fileExists(atPath: folder.path(name)), "reading removed \(name)") }

        let library = try PhotoLibrary(folder: root)
        #expect(library.reconciliation.removedLeftovers == own.count)
        #expect(library.reconciliation.indexed.isEmpty && library.reconciliation.skipped.isEmpty)
        for name in own { #expect(!FileManager.default.fileExists(atPath: folder.path(name)), "\(name) is the library's leftover") }
        for name in Self.foreignFiles { #expect(Self.read(folder.path(name)) == "mine: \(name)", "\(name) is not the library's") }
        #expect(try library.photos().count == 1)
    }

    @Test("A command that only reads the library changes nothing in its folder, leftovers and stale rows included")
    func readingTouchesNothing() async throws {
        let folder = try TemporaryFolder()
        let root = folder.url.path
        let lost: LibraryPhoto
        do {
            let library = try PhotoLibrary(folder: root)
            try library.add(PhotoLibraryTests.photo(at: 1_800_000_000))
            lost = try library.add(PhotoLibraryTests.photo(at: 1_800_000_001))
        }
        try FileManager.default.removeItem(atPath: lost.path)
        try Data(PhotoLibraryTests.jpeg(width: 8, height: 8)).write(to: URL(fileURLWithPath: folder.path("20270115-080000.000-abcdef.jpg")))
        try Self.write("leftover", to: folder.path(".20270115-080000.000-zzzzzz.jpg.1.2.tmp"))
        try Self.write("orphan", to: folder.path("thumbnails/20270115-080000.000-zzzzzz.jpg"))
        let before = Self.snapshot(root)

        let library = try PhotoLibrary(folder: root, forReading: true)
        #expect(library.isReadOnly && library.reconciliation.isEmpty)
        #expect(try library.photos().count == 2, "as the index says, until a writer reconciles it")
        let kept = try #require(try library.photos().first { $0.id != lost.id })
        #expect(try library.contents(of: kept) == PhotoLibraryTests.jpeg(width: 640, height: 480))
        #expect(throws: LibraryError.self) { try library.delete(id: kept.id) }
        // SQLite may add the index's shared-memory files, which let it read beside a writer.
        #expect(Self.snapshot(root).filter { !["library.sqlite-shm", "library.sqlite-wal"].contains($0.key) } == before)

        let missing = folder.path("not-made-yet")
        let empty = try PhotoLibrary(folder: missing, forReading: true)
        #expect(try empty.photos().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: missing), "reading a library that does not exist makes nothing")
    }

    @Test("A link in place of the library's subfolder or index is refused for writing; the folder it leads to is untouched",
          arguments: ["thumbnails", "spool", "recordings", "library.sqlite"])
    func linkedSubfolder(name: String) async throws {
        let folder = try TemporaryFolder(), elsewhere = try TemporaryFolder()
        let root = folder.url.path
        do {
            let library = try PhotoLibrary(folder: root)
            try library.add(PhotoLibraryTests.photo(at: 1_800_000_000))
        }
        // What a reconciling library would remove if it followed the link: its own kind of leftovers.
        for leftover in ["20270115-080000.000-zzzzzz.jpg", "20270115-080000.000-zzzzzz.pending", ".20270115-080000.000-zzzzzz.jpg.1.2.tmp",
                         "20270115-080000.000-zzzzzz.reserve", "notes.txt"] {
            try Self.write("theirs", to: elsewhere.path(leftover))
        }
        let target = name == "library.sqlite" ? elsewhere.path("library.sqlite") : elsewhere.url.path
        if name == "library.sqlite" { try FileManager.default.moveItem(atPath: folder.path(name), toPath: target) }
        try? FileManager.default.removeItem(atPath: folder.path(name))
        try FileManager.default.createSymbolicLink(atPath: folder.path(name), withDestinationPath: target)
        let before = Self.snapshot(elsewhere.url.path)

        let refused = #expect(throws: LibraryError.self) { try PhotoLibrary(folder: root) }
        #expect(refused?.message.contains("symbolic link") == true, "\(refused?.message ?? "")")
        #expect(refused?.message.contains("move it away") == true, "\(refused?.message ?? "")")
        if name != "library.sqlite" {
            let reading = try PhotoLibrary(folder: root, forReading: true)
            let photo = try #require(try reading.photos().first)
            if name == "thumbnails" {
                #expect(throws: LibraryError.self) { try reading.contents(of: photo, thumbnail: true) }
            }
        }
        #expect(Self.snapshot(elsewhere.url.path) == before)
    }

    /// What may stand where a photo's file or thumbnail should be.
    enum Stand: String, CaseIterable, Sendable {
        case linkOutside, linkToIndex, fifo, folder
    }

    @Test("A photo file or thumbnail replaced by a link, a FIFO or a folder is never read through, copied out or removed",
          arguments: Stand.allCases, [false, true])
    func replacedFile(stand: Stand, thumbnail: Bool) async throws {
        let folder = try TemporaryFolder(), outside = try TemporaryFolder()
        let root = folder.url.path
        let secret = outside.path("secret.txt")
        try Self.write("secret", to: secret)
        let library = try PhotoLibrary(folder: root)
        let photo = try library.add(PhotoLibraryTests.photo(at: 1_800_000_000))
        let path = try #require(thumbnail ? photo.thumbnailPath : photo.path)
        try FileManager.default.removeItem(atPath: path)
        switch stand {
        case .linkOutside: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret)
        case .linkToIndex: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder.path("library.sqlite"))
        case .fifo: #expect(mkfifo(path, 0o644) == 0)
        case .folder: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }

        let refused = #expect(throws: LibraryError.self) { try library.contents(of: photo, thumbnail: thumbnail) }
        #expect(refused?.kind == .ioError)
        #expect(throws: LibraryError.self) { try library.openFile(of: photo, thumbnail: thumbnail) }
        if !thumbnail {
            #expect(throws: LibraryError.self) { try library.export(id: photo.id, to: outside.path("copy.jpg")) }
            #expect(!FileManager.default.fileExists(atPath: outside.path("copy.jpg")))
        }
        try library.delete(id: photo.id)
        var status = stat()
        #expect(lstat(path, &status) == 0, "what stands in the file's place is not the library's to remove")
        #expect(Self.read(secret) == "secret")
        #expect(FileManager.default.fileExists(atPath: folder.path("library.sqlite")))
        #expect(try PhotoLibrary(folder: root).photos().isEmpty)
    }

    @Test("A row naming any file but one the library names is never listed, read or deleted, and is dropped on opening",
          arguments: ["serve-token", "guest-key", "library.sqlite", "library.sqlite-wal", "thumbnails", "notes.jpg", "../outside.jpg",
                      "20270115-080000.000-abcdef.jpg/../serve-token", ".20270115-080000.000-abcdef.jpg.1.2.tmp",
                      "20270115-080000.000-abcdef.JPG", "thumbnails/20270115-080000.000-abcdef.jpg", "20270115-080000.000-abcdef.pending"])
    func foreignRows(name: String) async throws {
        let folder = try TemporaryFolder()
        let root = folder.url.path
        let library = try PhotoLibrary(folder: root)
        let photo = try library.add(PhotoLibraryTests.photo(at: 1_800_000_000))
        for file in ["serve-token", "guest-key", "notes.jpg", "20270115-080000.000-abcdef.JPG", "20270115-080000.000-abcdef.pending"] {
            try Self.write("mine", to: folder.path(file))
        }
        let database = try Database(path: folder.path("library.sqlite"))
        try database.query("""
            INSERT INTO photos (file, thumbnail, captured_at, device, width, height, codec, byte_count)
            VALUES (?, ?, '2027-01-01T00:00:00.000Z', 'x', 1, 1, 'jpeg', 1)
            """, [.text(name), .text(name)])
        let tampered = database.lastInsertedRowID
        try database.query("UPDATE photos SET thumbnail = ? WHERE id = ?", [.text(name), .integer(photo.id)])
        let before = Self.snapshot(root).filter { !$0.key.hasPrefix("library.sqlite") }

        #expect(try library.photos().map(\.id) == [photo.id])
        #expect(try library.photo(id: photo.id).thumbnailPath == nil, "a thumbnail not named as this photo's is not its")
        #expect(throws: LibraryError.self) { try library.photo(id: tampered) }
        #expect(throws: LibraryError.self) { try library.delete(id: tampered) }
        try library.delete(id: photo.id)
        let after = Self.snapshot(root).filter { !$0.key.hasPrefix("library.sqlite") }
        #expect(after == before.filter { $0.key != photo.fileName }, "only the photo's own file went")
        let reopened = try PhotoLibrary(folder: root)
        #expect(try reopened.photos().isEmpty)
        #expect(try Database(path: folder.path("library.sqlite")).query("SELECT id FROM photos").isEmpty, "the foreign row was dropped")
        let ownThumbnail = "thumbnails/" + PhotoLibrary.thumbnailName(for: photo.fileName)
        #expect(Self.snapshot(root).filter { !$0.key.hasPrefix("library.sqlite") } == after.filter { $0.key != ownThumbnail },
                "of all, only the photo's own thumbnail, left by the tampered row, went")
    }
}
