import Foundation
import PhotoLibrary
import TestSupport
import Testing

@Suite("The photo library: files and an SQLite index", .hangGuard(minutes: 3))
struct PhotoLibraryTests {
    /// The smallest JPEG-shaped data with a frame header saying `width`x`height`.
    static func jpeg(width: Int, height: Int, filler: UInt8 = 0) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
         0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, filler, 0xFF, 0xD9]
    }

    static func photo(at seconds: TimeInterval, device: String = "Test camera") -> NewPhoto {
        NewPhoto(data: jpeg(width: 640, height: 480), thumbnail: jpeg(width: 160, height: 120), codec: "jpeg",
                 width: 640, height: 480, orientation: 6, capturedAt: Date(timeIntervalSince1970: seconds),
                 device: device, albums: ["booth"])
    }

    @Test("A command's id is remembered until it expires, across openings of the library, then forgotten")
    func commandLedger() async throws {
        let folder = try TemporaryFolder()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let library = try PhotoLibrary(folder: folder.url.path)
        #expect(try library.remember(commandID: "c1", until: now.addingTimeInterval(60), now: now))
        #expect(try !library.remember(commandID: "c1", until: now.addingTimeInterval(60), now: now))
        let reopened = try PhotoLibrary(folder: folder.url.path)
        #expect(try !reopened.remember(commandID: "c1", until: now.addingTimeInterval(60), now: now.addingTimeInterval(59)))
        #expect(try reopened.remember(commandID: "c1", until: now.addingTimeInterval(200), now: now.addingTimeInterval(61)),
                "forgotten once expired")
        let reader = try PhotoLibrary(folder: folder.url.path, forReading: true)
        #expect(throws: LibraryError.self) { try reader.remember(commandID: "c2", until: now, now: now) }
    }

    @Test("A composed picture names the photos it was made from, oldest first; a part added later joins them, a deleted one leaves them")
    func parts() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.url.path)
        let before = try library.add(Self.photo(at: 1_800_000_000))
        let shots = try [1, 2].map { try library.add(Self.photo(at: 1_800_000_010 + Double($0))) }
        var composed = Self.photo(at: 1_800_000_020)
        composed.parts = [shots[1].id, shots[0].id, 999]  // an id not in the library is not recorded
        let picture = try library.add(composed)
        #expect(try library.parts(of: picture.id).map(\.id) == shots.map(\.id))
        let (partsBefore, partsOfShot) = (try library.parts(of: before.id), try library.parts(of: shots[0].id))
        #expect(partsBefore.isEmpty && partsOfShot.isEmpty)
        let clip = try library.add(Self.photo(at: 1_800_000_030))
        try library.addParts([clip.id, picture.id], to: picture.id)
        #expect(try library.parts(of: picture.id).map(\.id) == shots.map(\.id) + [clip.id], "a picture is never its own part")
        try library.delete(id: shots[0].id)
        #expect(try library.parts(of: picture.id).map(\.id) == [shots[1].id, clip.id])
        let reopened = try PhotoLibrary(folder: folder.url.path)
        #expect(try reopened.parts(of: picture.id).map(\.id) == [shots[1].id, clip.id])
    }

    @Test("A HEIC photo's rendition is kept in renditions/, opened as the photo's files are, removed with its photo or once its photo is gone; a link in the folder's place is refused")
    func renditions() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.url.path)
        var heic = Self.photo(at: 1_800_000_000)
        heic.codec = "hevc"
        let (kept, gone) = (try library.add(heic), try library.add({ var other = heic; other.capturedAt = Date(timeIntervalSince1970: 1_800_000_001); return other }()))
        let jpeg = try library.add(Self.photo(at: 1_800_000_002))
        #expect(try library.openRendition(of: kept) == nil, "none until kept")
        #expect(throws: LibraryError.self) { try library.keepRendition([1, 2, 3], of: jpeg) }
        for photo in [kept, gone] { try library.keepRendition(Self.jpeg(width: 640, height: 480, filler: UInt8(photo.id)), of: photo) }
        let descriptor = try #require(try library.openRendition(of: kept))
        close(descriptor)
        let names = { Set(try FileManager.default.contentsOfDirectory(atPath: folder.path("renditions"))) }
        #expect(try names().count == 2)
        // Deleted with its photo; and one whose photo went by hand is removed as the library opens.
        try library.delete(id: kept.id)
        #expect(try names().count == 1)
        try FileManager.default.removeItem(atPath: gone.path)
        _ = try PhotoLibrary(folder: folder.url.path)
        #expect(try names().isEmpty)
        // A link put where the folder was: nothing is written through it.
        let elsewhere = try TemporaryFolder()
        try FileManager.default.removeItem(atPath: folder.path("renditions"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("renditions"), withDestinationPath: elsewhere.url.path)
        let another = try library.add({ var other = heic; other.capturedAt = Date(timeIntervalSince1970: 1_800_000_003); return other }())
        #expect(throws: LibraryError.self) { try library.keepRendition([0xFF, 0xD8], of: another) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).isEmpty)
    }

    @Test("A photo added is listed newest first, shown by id, exported and deleted with its files")
    func roundTrip() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.url.path)
        let first = try library.add(Self.photo(at: 1_800_000_000.125))
        let second = try library.add(Self.photo(at: 1_800_000_060, device: "Other camera"))
        #expect(second.id == first.id + 1)
        #expect(try library.photos().map(\.id) == [second.id, first.id])
        let shown = try library.photo(id: first.id)
        #expect(shown == first)
        #expect(shown.capturedAt == Date(timeIntervalSince1970: 1_800_000_000.125))
        #expect((shown.width, shown.height, shown.codec, shown.orientation, shown.albums) == (640, 480, "jpeg", 6, ["booth"]))
        #expect(URL(fileURLWithPath: shown.path).lastPathComponent.hasPrefix("20270115-"))
        #expect(FileManager.default.contents(atPath: shown.path) == Data(Self.jpeg(width: 640, height: 480)))
        let thumbnail = try #require(shown.thumbnailPath, "a photo added with a thumbnail has one")
        #expect(FileManager.default.contents(atPath: thumbnail) == Data(Self.jpeg(width: 160, height: 120)))

        let elsewhere = try TemporaryFolder()
        let exported = try library.export(id: first.id, to: elsewhere.path("copy.jpg"))
        #expect(FileManager.default.contents(atPath: exported) == Data(Self.jpeg(width: 640, height: 480)))
        let inside = #expect(throws: LibraryError.self) { try library.export(id: first.id, to: folder.path("copy.jpg")) }
        #expect(inside?.message.contains("inside the photo library") == true, "the library's folder is the library's own")

        try library.delete(id: first.id)
        #expect(!FileManager.default.fileExists(atPath: shown.path))
        #expect(!FileManager.default.fileExists(atPath: thumbnail))
        #expect(try library.photos().map(\.id) == [second.id])
        let missing = #expect(throws: LibraryError.self) { try library.photo(id: first.id) }
        #expect(missing?.kind == .notFound)
        #expect(missing?.message == "the library has no photo \(first.id)" && missing?.remedy == .listPhotos)
        // Ids are never reused, even for the newest photo deleted.
        try library.delete(id: second.id)
        #expect(try library.add(Self.photo(at: 1_800_000_100)).id == second.id + 1)
    }

    @Test("Opening reconciles: a file without a row is indexed, a row without a file dropped, leftovers removed")
    func reconciliation() async throws {
        let folder = try TemporaryFolder()
        var kept: LibraryPhoto, lost: LibraryPhoto
        do {
            let library = try PhotoLibrary(folder: folder.url.path)
            #expect(library.reconciliation.isEmpty)
            kept = try library.add(Self.photo(at: 1_800_000_000))
            lost = try library.add(Self.photo(at: 1_800_000_001))
        }
        try FileManager.default.removeItem(atPath: lost.path)                 // deleted by hand
        let orphan = folder.path("20270115-080000.000-abcdef.jpg")            // renamed, then a crash before its row
        try Data(Self.jpeg(width: 1920, height: 1080)).write(to: URL(fileURLWithPath: orphan))
        let temporary = folder.path(".20270115-080000.000-ghijkm.jpg.123.456.tmp")
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: temporary))  // a crash mid-write
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: folder.path(".photo.jpg.123.456.tmp")))  // another program's

        let reopened = try PhotoLibrary(folder: folder.url.path)
        #expect(reopened.reconciliation.dropped.map(\.id) == [lost.id])
        #expect(reopened.reconciliation.indexed.map(\.path) == [orphan])
        #expect(reopened.reconciliation.indexed.first.map { [$0.width, $0.height] } == [1920, 1080])
        #expect(reopened.reconciliation.removedLeftovers == 2, "the temporary file and the lost photo's thumbnail")
        #expect(Set(try reopened.photos().map(\.path)) == [kept.path, orphan])
        #expect(!FileManager.default.fileExists(atPath: temporary))
        #expect(FileManager.default.fileExists(atPath: folder.path(".photo.jpg.123.456.tmp")), "not named as the library names its files")
        #expect(try PhotoLibrary(folder: folder.url.path).reconciliation.isEmpty, "a second opening finds nothing to do")
    }

    @Test("Four writers with their own connections add forty photos at once; none is lost")
    func concurrentWriters() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.path
        _ = try PhotoLibrary(folder: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let library = try PhotoLibrary(folder: path)
                    for shot in 0..<10 {
                        // Every writer uses the same capture times, so names collide on time and differ by suffix.
                        try library.add(Self.photo(at: 1_800_000_000 + Double(shot), device: "writer \(writer)"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let photos = try PhotoLibrary(folder: path).photos()
        #expect(photos.count == 40)
        #expect(Set(photos.map(\.path)).count == 40)
        let files = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".jpg") }
        #expect(files.count == 40)
    }

    @Test("A folder that cannot be created is refused with the reason")
    func uncreatableFolder() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path("not-a-folder")
        try Data().write(to: URL(fileURLWithPath: file))
        let error = #expect(throws: LibraryError.self) { try PhotoLibrary(folder: file + "/library") }
        #expect(error?.kind == .cannotCreate)
    }
}
