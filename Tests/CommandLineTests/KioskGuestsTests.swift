import Foundation
import Glibc
import TestSupport
import Testing

@Suite("The kiosk view between guests: the attract screen, and each guest's own pictures only", .startsPrograms)
struct KioskGuestsTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/kiosk.py").path

    @Test("Three guests in a row on the kiosk: each starts on the attract screen with no code or photo of the one before, sees only their own picture's code, and can retake a shot",
          .enabled(if: PageTests.hasBrowser, "needs chromium, chromium-driver, python3-selenium and zbar-tools"), .drivesBrowser)
    func threeGuests() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        // Two shots at once, each shown for a second and a half, and the result for five seconds
        // before the attract screen comes back.
        let set = try await served.request("/api/settings", ["-X", "PUT", "-d", #"{"countdown": 0, "shots": 2, "attract_after": 5}"#])
        #expect(set.status == 200, "\(set.body)")
        let folder = try TemporaryFolder()
        let run = try await ChildProcess.run("/usr/bin/python3", [Self.script, served.base, folder.path("")])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
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
}
