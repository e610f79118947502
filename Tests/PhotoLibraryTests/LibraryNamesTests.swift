import FileSystem
@testable import PhotoLibrary
import Testing
import TestSupport

/// The names the library gives its files, and the only ones it takes as its own.
@Suite("Library names", .hangGuard(minutes: 3))
struct LibraryNamesTests {
    static let stem = "20261130-050132.123-k3f9x2"

    @Test("A photo's, a thumbnail's and a spooled frame's names are the stem with their extension; anything else is not the library's")
    func ownNames() {
        for name in ["jpg", "heic", "mp4", "gif"].map({ "\(Self.stem).\($0)" }) + ["19700101-000000.000-000000.jpg", "99999999-999999.999-zzzzzz.gif"] {
            #expect(PhotoLibrary.isPhotoFile(name), "\(name)")
        }
        let others = [
            "", ".jpg", "\(Self.stem)", "\(Self.stem).", "\(Self.stem).JPG", "\(Self.stem).jpeg", "\(Self.stem).png", "\(Self.stem).pending",
            "\(Self.stem).jpg.tmp", "x\(Self.stem).jpg", "\(Self.stem)x.jpg", "2026113-050132.123-k3f9x2.jpg", "20261130_050132.123-k3f9x2.jpg",
            "20261130-050132-123-k3f9x2.jpg", "20261130-050132.123-K3F9X2.jpg", "20261130-050132.123-k3f9x.jpg", "20261130-0501a2.123-k3f9x2.jpg",
            "20261130-050132.123-k3f9x2.jpg\n", "20261130-050132.123-k3f9\u{E9}.jpg", "2026113\u{661}-050132.123-k3f9x2.jpg", "notes.txt",
        ]
        for name in others { #expect(!PhotoLibrary.isPhotoFile(name), "\(name)") }
        #expect(PhotoLibrary.isSpooled("\(Self.stem).pending"))
        #expect(!PhotoLibrary.isSpooled("\(Self.stem).jpg") && !PhotoLibrary.isSpooled("\(Self.stem).pending.tmp"))
        #expect(PhotoLibrary.isThumbnail("\(Self.stem).jpg") && !PhotoLibrary.isThumbnail("\(Self.stem).heic"))
    }

    @Test("A temporary file of ours names the file it was writing; only ours of the library's names are the library's")
    func temporaryNames() {
        #expect(DurableFile.writtenName(ofTemporary: ".\(Self.stem).jpg.1234.5678.tmp") == "\(Self.stem).jpg")
        #expect(DurableFile.writtenName(ofTemporary: ".a.b.1.2.tmp") == "a.b")
        #expect(DurableFile.writtenName(ofTemporary: ".x..1.2.tmp") == "x.")
        for name in ["", ".tmp", "..1.2.tmp", ".1.2.tmp", ".a.1.tmp", ".a.1.x.tmp", ".a..2.tmp", "a.1.2.tmp", ".a.1.2.tmpx", ".a.1.2"] {
            #expect(DurableFile.writtenName(ofTemporary: name) == nil, "\(name)")
        }
        #expect(PhotoLibrary.isTemporary(".\(Self.stem).heic.99.12345.tmp"))
        #expect(PhotoLibrary.isTemporary(".\(Self.stem).pending.99.12345.tmp"))
        #expect(!PhotoLibrary.isTemporary(".notes.txt.99.12345.tmp"))
        #expect(!PhotoLibrary.isTemporary(".library.sqlite.99.12345.tmp"))
    }
}
