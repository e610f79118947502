import Foundation
import Testing
import TestSupport

@Suite("camctl serve's page in a real browser", .startsPrograms)
struct PageTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/page.py").path
    static let hasBrowser = FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
        && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")

    @Test("Headless Chromium: the live picture moves, a reviewed photo is saved (its QR code downloads it) or cancelled, the booth runs, a movie is recorded, phone, tablet and laptop screens fit with the shutter in sight",
          .enabled(if: hasBrowser, "needs chromium, chromium-driver, python3-selenium and zbar-tools"), .drivesBrowser)
    func page() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let folder = try TemporaryFolder()
        let run = try await ChildProcess.run("/usr/bin/python3", [Self.script, served.base, folder.path("qr.png")])
        // What the script saw, or (it failed) what it said on its way out.
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect(seen["live_changes"] as? Bool == true, "the live picture changes")
        #expect((seen["review_picture"] as? Int ?? 0) > 0, "the review shows the photo")
        #expect(seen["saved_shown_without_reload"] as? Bool == true, "Save puts the photo in the page's gallery, no reload: \(seen)")
        #expect(seen["saved_total"] as? Int == 1 && seen["last_photo_shown"] as? Bool == true)
        #expect((seen["qr_link"] as? String)?.hasPrefix(served.base + "/p/1-") == true, "the QR code decodes to the photo's link: \(seen)")
        #expect(seen["guest_page_download"] as? Bool == true, "the link opens the guest page, its Download button the photo: \(seen)")
        #expect(seen["qr_download_identical"] as? Bool == true, "the guest page's Download gets the library's file")
        #expect(seen["cancelled_total"] as? Int == 1 && seen["cancelled_gallery"] as? Int == 1, "Cancel leaves the library as it was")
        #expect(seen["booth_total"] as? Int == 6, "four shots and the strip: \(seen)")
        #expect(seen["booth_picture"] as? [[Int]] == [[1328, 1008]], "a 2x2 grid of the booth's own four shots: \(seen)")
        #expect(seen["gallery_thumbnails"] as? Int == 6, "every picture's thumbnail shows, the booth's too: \(seen)")
        #expect(seen["booth_album_gallery"] as? Int == 5, "the booth's album: its shots and its picture: \(seen)")
        #expect(seen["recording_said"] as? String == "Recording…" && seen["movie_message"] as? String == "Movie saved.", "\(seen)")
        #expect(seen["movie_kind"] as? String == "movie" && seen["movie_thumbnail_shown"] as? Bool == true, "the movie's thumbnail shows: \(seen)")
        #expect((seen["kiosk_warning"] as? String)?.hasPrefix("guests' phones cannot open the QR codes' links") == true, "\(seen)")
        #expect(seen["kiosk"] as? [String: Bool] == ["fills": true, "big": true, "settings": false, "gallery": false], "the kiosk view: \(seen)")
        #expect(seen["kiosk_booth"] as? Int == 5, "the kiosk's button ran a booth of four shots and its picture, its QR shown: \(seen)")
        #expect(seen["guest_booth_shots"] as? Int == 4, "the booth's guest page shows its four shots on a phone: \(seen)")
        #expect(seen["zoom"] as? Double == 1.25, "two steps in and one out, as + and - take them: \(seen)")
        for screen in ["phone", "tablet", "laptop"] {
            let fit = seen[screen] as? [String: Bool]
            #expect(fit?["fits"] == true && fit?["shutter"] == true, "\(screen): \(String(describing: fit)) \(String(describing: seen[screen + "_detail"]))")
        }
    }
}
