import Foundation
import TestSupport
import Testing

@Suite("HEIC finished after the shot: a proxy at once, the HEIC in its place, nothing lost to a kill", .startsPrograms)
struct DeferredHEICTests {
    /// The spool's files.
    static func spooled(_ camctl: Camctl) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: camctl.library.path("spool"))) ?? []
    }

    @Test("capture --hevc prints the final HEIC; the library holds it final, with no proxy and nothing spooled")
    func finishedBeforeExit() async throws {
        let camctl = try Camctl()
        let result = try await camctl("capture", "--device", "test", "--resolution", "640x480", "--hevc", "--count", "2", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let printed = Camctl.records(result.standardOutput)
        #expect(printed.count == 2 && printed.allSatisfy { ($0["path"] as? String)?.hasSuffix(".heic") == true && $0["codec"] as? String == "hevc" })
        let photos = try await camctl.photos()
        #expect(photos.map { $0["state"] as? String } == ["final", "final"])
        for photo in photos {
            #expect(try await Camctl.exif(try #require(photo["path"] as? String), "FileType", "ImageSize") == ["HEIC", "640x480"])
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: camctl.library.url.path)
        #expect(files.filter { $0.hasSuffix(".jpg") }.isEmpty, "no proxy stays")
        #expect(Self.spooled(camctl).isEmpty)
    }

    @Test("A burst of HEICs finished later: each photo printed once, final")
    func burst() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let file = try folder.file("burst.camctl", holding: "camera test\nresolution 320x240@30\ncodec hevc\nburst 5\n")
        let result = try await camctl("run", file)
        #expect(result.status == 0, "\(result.standardError)")
        let printed = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(printed.count == 5 && Set(printed).count == 5 && printed.allSatisfy { $0.hasSuffix(".heic") }, "\(printed)")
        let photos = try await camctl.photos()
        #expect(photos.count == 5 && photos.allSatisfy { $0["state"] as? String == "final" && $0["codec"] as? String == "hevc" })
        #expect(Self.spooled(camctl).isEmpty)
    }

    @Test("--now encodes at once: no proxy, no spool; --now needs --hevc; a copy elsewhere is encoded at once too")
    func now() async throws {
        let camctl = try Camctl()
        let result = try await camctl("capture", "--device", "test", "--resolution", "320x240", "--hevc", "--now")
        #expect(result.status == 0 && result.standardOutput.hasSuffix(".heic\n"), "\(result.standardError)")
        let state = try await camctl.photos().first?["state"] as? String
        #expect(Self.spooled(camctl).isEmpty && state == "final")
        let usage = try await camctl("capture", "--device", "test", "--now")
        #expect(usage.status == 64 && usage.standardError.contains("--now needs --hevc"))
        let folder = try TemporaryFolder()
        let copied = try await camctl("capture", "--device", "test", "--resolution", "320x240", "--hevc", "--output", folder.path("copy.heic"))
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(try await Camctl.exif(folder.path("copy.heic"), "FileType") == ["HEIC"])
        #expect(Self.spooled(camctl).isEmpty, "a photo with a copy is not spooled: the copy would be the proxy")
    }

    /// A folder with a 12 MP picture to use as a camera, `picture.png`.
    static func largePicture() async throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try await Camctl.testPicture(folder.path("picture.png"), width: 4032, height: 3024)
        return folder
    }

    /// Starts a 12 MP HEIC capture, and kills it with SIGKILL once its photo is spooled.
    static func killedWhileProcessing(_ camctl: Camctl, picture: String) async throws {
        let running = try camctl.start(["capture", "--device", "file:\(picture)", "--resolution", "photo", "--hevc"])
        // Killed once the photo's spooled frame has its name and its row says it is processing
        // (its proxy in place): the HEIC takes seconds more.
        #expect(await until(every: .milliseconds(2)) { spooled(camctl).contains { $0.hasSuffix(".pending") } }, "the photo is spooled")
        #expect(try await until { try await camctl.photos().first?["state"] as? String == "processing" }, "its row is committed")
        running.send(SIGKILL)
        _ = await running.finished()
        #expect(!spooled(camctl).isEmpty, "the photo was spooled before the kill")
    }

    @Test("SIGKILL while the HEIC is made: the proxy is the photo meanwhile; library process, or the next run, finishes it")
    func killed() async throws {
        let pictures = try await Self.largePicture(), picture = pictures.path("picture.png")
        let camctl = try Camctl()
        try await Self.killedWhileProcessing(camctl, picture: picture)
        let processing = try #require(try await camctl.photos().first)
        #expect(processing["state"] as? String == "processing")
        let proxy = try #require(processing["path"] as? String)
        #expect(try await Camctl.exif(proxy, "FileType", "ImageSize") == ["JPEG", "4032x3024"], "the proxy is a whole picture meanwhile")
        let processed = try await camctl("library", "process")
        #expect(processed.status == 0, "\(processed.standardError)")
        let final = try #require(try await camctl.photos().first)
        #expect(final["state"] as? String == "final" && final["id"] as? Int == processing["id"] as? Int)
        #expect(processed.standardOutput == (final["path"] as? String ?? "") + "\n")
        #expect(try await Camctl.exif(try #require(final["path"] as? String), "FileType", "ImageSize", "Model") == ["HEIC", "4032x3024", "File \(picture)"])
        #expect(!FileManager.default.fileExists(atPath: proxy) && Self.spooled(camctl).isEmpty)

        // Killed again; this time the next capture finishes it, besides its own photo.
        try await Self.killedWhileProcessing(camctl, picture: pictures.path("picture.png"))
        let next = try await camctl("capture", "--device", "test", "--resolution", "320x240")
        #expect(next.status == 0 && next.standardOutput.split(separator: "\n").count == 1, "only its own photo is printed")
        let photos = try await camctl.photos()
        #expect(photos.count == 3 && photos.allSatisfy { $0["state"] as? String == "final" })
        #expect(photos.filter { $0["codec"] as? String == "hevc" }.count == 2 && Self.spooled(camctl).isEmpty)
    }

    @Test("A photo taken while another run's leftovers are finished is told of at once, not after them")
    func leftoversWaitBehindNewPhotos() async throws {
        let camctl = try Camctl()
        // A burst of HEICs finished later, killed once 13 are spooled: at least a dozen are left
        // processing (a photo's spooled frame is written before its row is committed, so the last
        // one spooled may have no row yet).
        let burst = try camctl.start(["capture", "--device", "test:snow", "--resolution", "640x480", "--count", "200", "--hevc"])
        #expect(await until(every: .milliseconds(2)) { Self.spooled(camctl).filter { $0.hasSuffix(".pending") }.count >= 13 })
        burst.send(SIGKILL)
        _ = await burst.finished()
        let left = try await camctl.photos().filter { $0["state"] as? String == "processing" }.count
        #expect(left >= 12)
        // The next run's JPEG is printed while the leftovers are still being finished, each
        // taking a while with the slow encoder.
        let next = try camctl.start(["capture", "--device", "test", "--resolution", "320x240"])
        #expect(await next.output(containing: ".jpg\n", timeout: 60), "\(next.outputSoFar)")
        let stillProcessing = try await camctl.photos().filter { $0["state"] as? String == "processing" }.count
        #expect(stillProcessing > 0, "\(left) left, none processing once the JPEG was told")
        // A hang guard: a dozen HEICs at the slow encoder's preset take minutes on a loaded machine.
        let result = await next.finished(timeout: 240)
        #expect(result.status == 0 && result.standardOutput.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(try await camctl.photos().allSatisfy { $0["state"] as? String == "final" } && Self.spooled(camctl).isEmpty)
    }

    @Test("A spooled frame damaged on disk: the proxy is kept as the photo, said in one sentence, exit 65")
    func damagedSpool() async throws {
        let pictures = try await Self.largePicture(), picture = pictures.path("picture.png")
        let camctl = try Camctl()
        try await Self.killedWhileProcessing(camctl, picture: picture)
        let spool = camctl.library.path("spool/" + (try #require(Self.spooled(camctl).first)))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: spool))
        try handle.seek(toOffset: 5000)
        try handle.write(contentsOf: Data(repeating: 0xAA, count: 16))
        try handle.close()
        let processed = try await camctl("library", "process")
        #expect(processed.status == 65)
        #expect(processed.standardError.contains("could not be finished as HEIC") && processed.standardError.contains("damaged"))
        let photo = try #require(try await camctl.photos().first)
        #expect(photo["state"] as? String == "final" && photo["codec"] as? String == "jpeg")
        #expect(try await Camctl.exif(try #require(photo["path"] as? String), "FileType") == ["JPEG"] && Self.spooled(camctl).isEmpty)
    }
}
