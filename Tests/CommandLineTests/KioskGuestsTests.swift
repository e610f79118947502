import Foundation
import Glibc
import TestSupport
import Testing

@Suite("The kiosk view between guests: the attract screen, and each guest's own pictures only", .startsPrograms)
struct KioskGuestsTests {
    /// Runs a browser script of `Tests/Browser` against a served camera whose booth settings are
    /// `settings` (JSON), with `arguments` after the server's address; what the script saw, and the server.
    static func kiosk(_ script: String, settings: String, _ arguments: [String] = []) async throws -> (seen: [String: Any], served: ServedCamera) {
        let served = try await ServedCamera()
        let set = try await served.request("/api/settings", ["-X", "PUT", "-d", settings])
        #expect(set.status == 200, "\(set.body)")
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Browser/\(script)").path
        let run = try await ChildProcess.run("/usr/bin/python3", [path, served.base] + arguments)
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        return (seen, served)
    }

    @Test("Three guests in a row on the kiosk: each starts on the attract screen with no code or photo of the one before, sees only their own picture's code, and can retake a shot",
          .enabled(if: PageTests.hasBrowser, "needs chromium, chromium-driver, python3-selenium and zbar-tools"), .drivesBrowser)
    func threeGuests() async throws {
        // Two shots at once, each shown for a second and a half, and the result for five seconds
        // before the attract screen comes back.
        let folder = try TemporaryFolder()
        let (seen, served) = try await Self.kiosk("kiosk.py", settings: #"{"countdown": 0, "shots": 2, "attract_after": 5}"#, [folder.path("")])
        defer { served.process.send(SIGTERM) }
        let guests = seen["guests"] as? [[String: Any]] ?? []
        #expect(guests.count == 3, "\(seen)")
        for (index, guest) in guests.enumerated() {
            #expect((guest["attract_codes"] as? [String])?.isEmpty == true, "guest \(index + 1) starts with no code on the screen: \(guest)")
            #expect(guest["attract_last_shown"] as? Bool == false, "no thumbnail of the guest before: \(guest)")
            #expect(guest["attract_invite"] as? String == "Press Start for your photos", "\(guest)")
            #expect(guest["attract_after_start"] as? Bool == false, "Start ends the attract screen: \(guest)")
            // Two shots and their picture; the retaken shot left nothing behind.
            #expect(guest["new_photos"] as? Int == 3, "guest \(index + 1): \(guest)")
            #expect(guest["result_code_is_own"] as? Bool == true, "guest \(index + 1) sees one code, their own picture's: \(guest)")
            #expect(guest["last_is_own"] as? Bool == true, "the thumbnail is of the guest's own shot: \(guest)")
            // The second guest's first shot was taken twice: told as shot 1 again.
            #expect(guest["shots_told"] as? [Int] == (index == 1 ? [1, 1, 2] : [1, 2]), "guest \(index + 1): \(guest)")
            if index > 0 {
                #expect(guest["attract_picture_is_composed"] as? Bool == true, "the attract screen shows the event's pictures: \(guest)")
            }
        }
        #expect((seen["final_attract_codes"] as? [String])?.isEmpty == true, "\(seen)")
        #expect(seen["reloaded_last_shown"] as? Bool == false && seen["reloaded_takehome_shown"] as? Bool == false, "\(seen)")
        // Three booths of two shots and a picture each, one shot taken twice.
        let all = try await served.json("/api/photos?limit=100")
        #expect((all.object["total"] as? Int) == 9, "\(all.object)")
    }

    @Test("While a guest's picture waits for Save, the kiosk's attract screen waits too; once saved, it comes with nothing of the guest",
          .enabled(if: PageTests.hasBrowser, "needs chromium, chromium-driver and python3-selenium"), .drivesBrowser)
    func attractWaitsForReview() async throws {
        let (seen, served) = try await Self.kiosk("kiosk_review.py", settings: #"{"countdown": 0, "shots": 1, "review": true}"#)
        defer { served.process.send(SIGTERM) }
        #expect(seen["attract_while_reviewing"] as? Bool == false && seen["save_shown_after"] as? Bool == true, "\(seen)")
        #expect(seen["attract_after_save"] as? Bool == true && seen["takehome_after"] as? Bool == false, "\(seen)")
    }
}
