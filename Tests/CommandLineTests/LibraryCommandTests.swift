import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl library, devices and booth", .startsPrograms)
struct LibraryCommandTests {
    @Test("Albums are read back: library albums counts each, list --album lists one, a booth's picture above its shots; an album nobody is in lists nothing and says so, naming those there are")
    func albums() async throws {
        let camctl = try Camctl()
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        let booth = try await camctl("booth", "--device", "test", "--resolution", "320x240", "--sink", "fakesink", "--shots", "2", "--countdown", "0",
                                     "--show-shots", "0", "--show-result", "0")
        #expect(booth.status == 0, "\(booth.standardError)")
        #expect(try await camctl("library", "albums").standardOutput == "booth  3 photos\n")
        let counted = Camctl.objects(try await camctl("library", "albums", "--json").standardOutput)
        #expect(counted.count == 1 && counted.first?["album"] as? String == "booth" && counted.first?["photos"] as? Int == 3, "\(counted)")
        let inBooth = Camctl.objects(try await camctl("library", "list", "--album", "booth", "--json").standardOutput)
        #expect(Set(inBooth.compactMap { $0["id"] as? Int }) == [2, 3, 4], "the shots and their strip, not the capture before: \(inBooth)")
        // Newest first: the strip, dated when it was made, above the shots it was made of.
        #expect(inBooth.compactMap { $0["id"] as? Int } == [4, 3, 2], "\(inBooth)")
        let nobody = try await camctl("library", "list", "--album", "nobody")
        #expect(nobody.status == 0 && nobody.standardOutput.isEmpty)
        #expect(nobody.standardError == "camctl: no photo is in the album nobody; the library's albums: booth\n", "\(nobody.standardError)")
    }

    @Test("list, show, export, delete and sheet work on what capture stored; a library of more photos than a sheet holds makes numbered sheets")
    func libraryActions() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240", "--count", "3").status == 0)
        let listed = try await camctl("library", "list")
        #expect(listed.status == 0)
        let lines = listed.standardOutput.split(separator: "\n")
        #expect(lines.count == 4 && lines[0].hasPrefix("ID  TAKEN"))
        #expect(lines[1].hasPrefix("3 ") && lines[3].hasPrefix("1 "), "newest first")
        #expect(lines[1].contains("320x240") && lines[1].contains("jpeg") && lines[1].contains("Test camera"))

        let shown = Camctl.objects(try await camctl("library", "show", "2", "--json").standardOutput)
        #expect(shown.first?["id"] as? Int == 2 && shown.first?["width"] as? Int == 320)
        let text = try await camctl("library", "show", "2").standardOutput
        #expect(text.contains("captured_at") && text.contains("thumbnail_path"))

        let exported = try await camctl("library", "export", "2", folder.path("copy.jpg"))
        #expect(exported.standardOutput == folder.path("copy.jpg") + "\n")
        let original = try #require(shown.first?["path"] as? String)
        #expect(FileManager.default.contents(atPath: folder.path("copy.jpg")) == FileManager.default.contents(atPath: original))

        let sheet = try await camctl("library", "sheet", "--output", folder.path("sheet.jpg"), "--columns", "2")
        #expect(sheet.status == 0, "\(sheet.standardError)")
        #expect(try await Camctl.exif(folder.path("sheet.jpg"), "FileType", "ImageSize") == ["JPEG", "664x504"], "2x2 cells of 320x240, margins 8")
        let crowded = try await camctl("library", "sheet", "--output", folder.path("one.jpg"), "--per-sheet", "2")
        #expect(crowded.status == 64 && crowded.standardError.contains("the library has 3 photos, more than a sheet holds (2); put %d in --output"),
                "\(crowded.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("one.jpg")))
        let timed = try await camctl("library", "sheet", "--output", folder.path("sheet-%t.jpg"), "--per-sheet", "2")
        #expect(timed.status == 64 && timed.standardError.contains("put %d in --output"), "sheets made at one time share %t: \(timed.standardError)")
        let pages = try await camctl("library", "sheet", "--output", folder.path("page-%d.jpg"), "--per-sheet", "2")
        #expect(pages.status == 0 && pages.standardOutput == folder.path("page-1.jpg") + "\n" + folder.path("page-2.jpg") + "\n", "\(pages.standardError)")
        #expect(try await Camctl.exif(folder.path("page-1.jpg"), "ImageSize") == ["664x256"], "the two newest side by side")
        #expect(try await Camctl.exif(folder.path("page-2.jpg"), "ImageSize") == ["336x256"], "the oldest alone")
        let nowhere = try await camctl("library", "sheet", "--output", folder.path("missing/page-%d.jpg"), "--per-sheet", "2")
        #expect(nowhere.status == 73 && nowhere.standardError == "camctl: \(folder.path("missing/page-1.jpg")) could not be created: "
            + "its folder does not exist\n", "\(nowhere.standardError)")

        #expect(try await camctl("library", "delete", "2").standardOutput == "deleted 2\n")
        #expect(!FileManager.default.fileExists(atPath: original))
        #expect(try await camctl.photos().map { $0["id"] as? Int } == [3, 1])
        let again = try await camctl("library", "delete", "2")
        #expect(again.status == 64 && again.standardError.contains("the library has no photo 2"))
    }

    @Test("A photo file deleted by hand is reported and its entry dropped when the library is next written, not when it is read")
    func reconciliationIsReported() async throws {
        let camctl = try Camctl()
        let paths = try await camctl("capture", "--device", "test", "--resolution", "160x120", "--count", "2").standardOutput
            .split(separator: "\n").map(String.init)
        try #require(paths.count == 2)
        try FileManager.default.removeItem(atPath: paths[0])
        let listed = try await camctl("library", "list", "--json")
        #expect(listed.status == 0 && listed.standardError.isEmpty, "reading changes nothing: \(listed.standardError)")
        #expect(Camctl.objects(listed.standardOutput).count == 2)
        let deleted = try await camctl("library", "delete", "2")
        #expect(deleted.status == 0)
        #expect(deleted.standardError.contains("whose file was gone (#1); their entries were removed"), "\(deleted.standardError)")
        #expect(try await camctl.photos().isEmpty)
    }

    @Test("devices lists the test camera last, marked, in text and JSON")
    func devices() async throws {
        let camctl = try Camctl()
        let text = try await camctl("devices")
        #expect(text.status == 0)
        let blocks = text.standardOutput.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(blocks.last?.hasPrefix("test  Test camera (smpte) (built-in test camera") == true)
        #expect(text.standardOutput.contains("    I420 any size up to 16384x16384 at 1-1000 fps"))
        let json = Camctl.objects(try await camctl("devices", "--json").standardOutput)
        let test = try #require(json.last)
        #expect(test["id"] as? String == "test" && test["test_camera"] as? Bool == true)
        let formats = try #require(test["formats"] as? [[String: Any]])
        #expect(formats.map { $0["media_type"] as? String } == ["video/x-raw", "image/jpeg"])
    }

    @Test("booth --countdown 0 takes its shots and composes them in a grid or a strip", arguments: [
        ("2x2", 4, "1328x1008"), ("1x4", 4, "672x2000"), ("2x2", 3, "1328x1008"),
    ])
    func booth(layout: String, shots: Int, size: String) async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let composed = folder.path("booth.jpg")
        let result = try await camctl("booth", "--device", "test:ball", "--resolution", "640x480", "--countdown", "0",
                                "--sink", "fakesink", "--shots", "\(shots)", "--layout", layout, "--output", composed, "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let objects = Camctl.records(result.standardOutput)
        #expect(objects.count == shots + 1)
        #expect(objects.last?["composed"] as? Bool == true)
        #expect(objects.last?["output"] as? String == composed)
        #expect(try await Camctl.exif(composed, "FileType", "ImageSize") == ["JPEG", size])
        #expect(try await camctl.photos().count == shots + 1, "the shots and the composed picture are in the library")
    }

    @Test("Four processes capturing ten photos each into one library lose none")
    func concurrentProcesses() async throws {
        let camctl = try Camctl()
        let runs = try (0..<4).map { _ in
            try camctl.start(["capture", "--device", "test:ball", "--resolution", "320x240", "--count", "10"])
        }
        let results = await runs.asyncMap { await $0.finished() }
        for result in results { #expect(result.status == 0, "\(result.standardError)") }
        let printed = results.flatMap { $0.standardOutput.split(separator: "\n") }
        #expect(printed.count == 40 && Set(printed).count == 40)
        let photos = try await camctl.photos()
        #expect(photos.count == 40)
        #expect(Set(photos.compactMap { $0["path"] as? String }) == Set(printed.map(String.init)))
        let files = try FileManager.default.contentsOfDirectory(atPath: camctl.library.url.path).filter { $0.hasSuffix(".jpg") }
        #expect(files.count == 40)
    }

    @Test("A library on a full disk fails with exit code 74 and leaves no partial file",
          .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func fullDisk() async throws {
        let mount = try TemporaryMount(options: "size=256k")
        let camctl = try Camctl()
        let result = try await camctl("capture", "--device", "test:snow", "--resolution", "1920x1080", "--count", "5",
                                "--library", mount.path("library"))
        #expect(result.status == 74, "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.contains("No space left on device") || result.standardError.contains("disk is full"),
                "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: mount.path("library"))
        #expect(!files.contains { $0.hasSuffix(".tmp") }, "no temporary file stays: \(files)")
        let thumbnails = try FileManager.default.contentsOfDirectory(atPath: mount.path("library/thumbnails"))
        #expect(!thumbnails.contains { $0.hasSuffix(".tmp") })
        // Every photo reported saved is whole and indexed.
        let listed = Camctl.objects(try await camctl("library", "list", "--json", "--library", mount.path("library")).standardOutput)
        #expect(listed.count == result.standardOutput.split(separator: "\n").count)
        for photo in listed {
            #expect(try await Camctl.exif(try #require(photo["path"] as? String), "FileType") == ["JPEG"])
        }
    }

    @Test("A read-only library folder fails with exit code 77 before the camera starts",
          .enabled(if: getuid() == 0, "mounting a read-only tmpfs needs root"))
    func readOnlyLibrary() async throws {
        let mount = try TemporaryMount(options: "ro,size=64k")
        let camctl = try Camctl()
        let result = try await camctl("capture", "--device", "test", "--library", mount.path("library"))
        #expect(result.status == 77, "\(result.standardError)")
        #expect(result.standardError == "camctl: \(mount.path("library")) could not be written: Read-only file system; choose a folder you can write to\n")
    }
}
