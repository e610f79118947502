import Foundation
import Glibc
import TestSupport
import Testing

@Suite("A HEIC photo on a guest's phone", .startsPrograms)
struct HEICGuestPageTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/guest.py").path

    @Test("A HEIC photo's guest page shows it in Chromium at 390x844 through a JPEG rendition made once and kept beside it (libheif's picture, as ffmpeg reads both); Download keeps the HEIC; deleting the photo deletes the rendition",
          .enabled(if: PageTests.hasBrowser && ChildProcess.isInstalled("heif-convert"), "needs chromium, chromium-driver, python3-selenium and libheif-examples"),
          .drivesBrowser)
    func heicShown() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let taken = try await served.json("/api/capture", ["-d", #"{"codec": "hevc"}"#])
        let id = try #require((taken.object["photos"] as? [[String: Any]])?.first?["id"] as? Int, "\(taken.object)")
        // Once its HEIC is final (until then its file is a JPEG proxy).
        var record: [String: Any] = [:]
        #expect(await until {
            record = (try? await served.json("/api/photos/\(id)"))?.object ?? [:]
            return record["state"] as? String == "final"
        }, "\(record)")
        let (path, link) = (try #require(record["path"] as? String), try #require(record["guest_link"] as? String))
        #expect(path.hasSuffix(".heic"))
        let rendition = served.camctl.library.path("renditions/" + URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".jpg")
        #expect(!FileManager.default.fileExists(atPath: rendition), "made when first asked for, not before")
        // The phone's browser shows it, at the photo's size.
        let run = try await ChildProcess.run("/usr/bin/python3", [Self.script, served.base + link])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect(seen["width"] as? Int == record["width"] as? Int && seen["height"] as? Int == record["height"] as? Int, "\(seen) \(record)")
        #expect((seen["src"] as? String)?.hasSuffix("/shown.jpg") == true && (seen["download"] as? String)?.hasSuffix("/file") == true, "\(seen)")
        // Kept in the library, and the same picture as libheif decodes.
        let kept = [UInt8](try Data(contentsOf: URL(fileURLWithPath: rendition)))
        #expect(kept.starts(with: [0xFF, 0xD8]), "a JPEG")
        let folder = try TemporaryFolder()
        let reference = folder.path("reference.png")
        let converted = try await ChildProcess.run("heif-convert", [path, reference])
        #expect(converted.status == 0, "\(converted.standardError)")
        let expected = try await BoothCommandTests.frames(ofPicture: reference, width: 160, height: 120)
        let shown = try await BoothCommandTests.frames(ofPicture: rendition, width: 160, height: 120)
        #expect(BoothCommandTests.distance(expected, shown) / max(1, expected.count / 7) < 6, "the rendition is libheif's picture")
        // Asked again: the one kept, not made again.
        let modified = try FileManager.default.attributesOfItem(atPath: rendition)[.modificationDate] as? Date
        let again = try await served.request(link + "/shown.jpg")
        #expect(again.status == 200 && again.bytes == kept)
        #expect(try FileManager.default.attributesOfItem(atPath: rendition)[.modificationDate] as? Date == modified)
        // Download is the HEIC itself.
        let download = try await served.request(link + "/file")
        let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(download.status == 200 && download.bytes == original)
        // A JPEG photo has no rendition: its own file is shown.
        let jpeg = try await served.json("/api/capture", ["-d", "{}"])
        let jpegLink = try #require(((jpeg.object["photos"] as? [[String: Any]])?.first?["guest_link"]) as? String)
        #expect(try await served.request(jpegLink + "/shown.jpg").status == 404)
        // Deleting the photo deletes its rendition.
        #expect(try await served.request("/api/photos/\(id)", ["-X", "DELETE"]).status == 200)
        #expect(!FileManager.default.fileExists(atPath: rendition))
    }
}
