import Foundation
import Glibc
import TestSupport
import Testing

@Suite("The page's gallery: pages of photos, and deleting one", .startsPrograms)
struct GalleryTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/gallery.py").path

    @Test("Seventy photos: the gallery shows sixty, More the other ten; Delete asks first, then takes the photo and its files out of the library",
          .enabled(if: PageTests.hasBrowser, "needs chromium, chromium-driver and python3-selenium"), .drivesBrowser)
    func pagesAndDeletes() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let burst = try await served.json("/api/actions", ["-d", #"{"action": "burst", "count": 70}"#])
        let photos = try #require(burst.object["photos"] as? [[String: Any]], "\(burst.object)")
        #expect(photos.count == 70)
        let run = try await ChildProcess.run("/usr/bin/python3", [Self.script, served.base])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect(seen["first_page"] as? Int == 60 && seen["more_shown"] as? Bool == true, "\(seen)")
        #expect(seen["after_more"] as? Int == 70 && seen["more_after"] as? Bool == false && seen["distinct"] as? Bool == true, "\(seen)")
        #expect(seen["kept_on_no"] as? Int == 70, "no deletion without the owner's yes: \(seen)")
        #expect(seen["after_delete"] as? Int == 69 && seen["total_after_delete"] as? Int == 69, "\(seen)")
        let deleted = try #require((seen["deleted"] as? String).flatMap { Int($0) })
        let record = try #require(photos.first { $0["id"] as? Int == deleted })
        #expect(!FileManager.default.fileExists(atPath: try #require(record["path"] as? String)), "the file is gone")
        #expect(try await served.request("/api/photos/\(deleted)").status == 404)
    }
}
