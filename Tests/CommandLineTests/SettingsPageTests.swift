import Foundation
import Testing
import TestSupport

/// A served booth's settings: changed from the page or the API, applied to the next booth, kept
/// across a restart, and checked.
@Suite("camctl serve's booth settings", .startsPrograms)
struct SettingsPageTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/settings.py").path

    /// A templates folder with `two.json`: two slots on an 800x1000 picture.
    static func templates() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try """
            {"width": 800, "height": 1000, "background": "#202020",
             "slots": [{"x": 40, "y": 40, "width": 720, "height": 405}, {"x": 40, "y": 520, "width": 720, "height": 405, "rotation": -3}]}
            """.write(toFile: folder.path("two.json"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test("Headless Chromium: the countdown and a template chosen in the settings view make the next booth's countdown and picture; a restart keeps them",
          .enabled(if: PageTests.hasBrowser, "needs chromium, chromium-driver and python3-selenium"), .drivesBrowser)
    func settingsView() async throws {
        let templates = try Self.templates()
        let camctl = try Camctl()
        let file = camctl.library.path("booth-settings.json")
        let options = ["--templates", templates.url.path]  // the settings kept where serve keeps them by default
        let served = try await ServedCamera(camctl: camctl, extra: options)
        let run = try await ChildProcess.run("/usr/bin/python3", [Self.script, served.base, "two.json"])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect(seen["layouts_offered"] as? [String] == ["2x2", "1x4", "two.json"], "\(seen)")
        #expect(seen["countdown_shown"] as? String == "3", "the booth's default countdown is shown first: \(seen)")
        #expect(seen["saved_message"] as? String == "Settings saved in \(file).", "\(seen)")
        let countdowns = seen["countdowns"] as? [Int] ?? []
        #expect(countdowns.count >= 2 && countdowns.allSatisfy { $0 <= 1 }, "one second before each of two shots: \(seen)")
        #expect(seen["picture"] as? [[Int]] == [[800, 1000]] && seen["total"] as? Int == 3, "two shots in the template's picture: \(seen)")
        served.process.send(SIGTERM)
        #expect(await served.process.finished(timeout: 60).status == 0)
        let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        #expect(kept?["countdown"] as? Double == 1 && kept?["layout"] as? String == "two.json" && kept?["shots"] as? Int == 2, "\(String(describing: kept))")

        let restarted = try await ServedCamera(camctl: camctl, extra: options)
        defer { restarted.process.send(SIGTERM) }
        let said = try await restarted.request("/api/settings")
        let settings = try JSONSerialization.jsonObject(with: Data(said.body.utf8)) as? [String: Any]
        #expect(said.status == 200 && settings?["countdown"] as? Double == 1 && settings?["layout"] as? String == "two.json"
                && settings?["shots"] as? Int == 2 && settings?["templates"] as? [String] == ["two.json"], "\(said.body)")
    }

    @Test("With no --settings, what is saved is kept in the library's booth-settings.json, said in the answer, and read by the next start")
    func keptInLibrary() async throws {
        let camctl = try Camctl()
        let file = camctl.library.path("booth-settings.json")
        let served = try await ServedCamera(camctl: camctl, extra: [])
        let changed = try await served.request("/api/settings", ["-X", "PUT", "-d", #"{"countdown": 7, "shots": 2, "filter": "mono"}"#])
        let answer = try JSONSerialization.jsonObject(with: Data(changed.body.utf8)) as? [String: Any]
        #expect(changed.status == 200 && answer?["kept_in"] as? String == file, "\(changed.body)")
        served.process.send(SIGTERM)
        #expect(await served.process.finished(timeout: 60).status == 0)
        let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        #expect(kept?["countdown"] as? Double == 7 && kept?["shots"] as? Int == 2 && kept?["filter"] as? String == "mono"
                && kept?["kept_in"] == nil, "the file holds the settings alone: \(String(describing: kept))")

        let restarted = try await ServedCamera(camctl: camctl, extra: [])
        defer { restarted.process.send(SIGTERM) }
        let settings = try JSONSerialization.jsonObject(with: Data(try await restarted.request("/api/settings").body.utf8)) as? [String: Any]
        #expect(settings?["countdown"] as? Double == 7 && settings?["shots"] as? Int == 2 && settings?["filter"] as? String == "mono",
                "\(String(describing: settings))")
        let status = try JSONSerialization.jsonObject(with: Data(try await restarted.request("/api/status").body.utf8)) as? [String: Any]
        #expect(status?["filter"] as? String == "mono", "the kept filter is on the picture from the start: \(String(describing: status))")
        // The library still lists its photos alone: the settings file is not one of its files.
        #expect(try await camctl.photos().isEmpty)
    }

    /// `HH:MM` of an instant in UTC, as a stamp of `%H:%M` draws it with `TZ=UTC`.
    static func hoursAndMinutes(_ instant: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: instant)
    }

    @Test("PUT /api/settings: a stamp and filter apply to the picture; wrong values, names outside the folders and requests without the token are refused")
    func api() async throws {
        let templates = try Self.templates()
        let backgrounds = try TemporaryFolder()
        let outside = try TemporaryFolder()
        try await Camctl.testPicture(backgrounds.path("beach.png"), width: 320, height: 240)
        try await Camctl.testPicture(outside.path("secret.png"), width: 320, height: 240)
        let whole = try Data(contentsOf: URL(fileURLWithPath: backgrounds.path("beach.png")))
        try whole.prefix(100).write(to: URL(fileURLWithPath: backgrounds.path("damaged.png")))
        try FileManager.default.createSymbolicLink(atPath: backgrounds.path("link.png"), withDestinationPath: outside.path("secret.png"))
        let served = try await ServedCamera(extra: ["--templates", templates.url.path, "--backgrounds", backgrounds.url.path],
                                            environment: ["TZ": "UTC"])
        defer { served.process.send(SIGTERM) }
        let listed = try await served.request("/api/settings")
        let choices = try JSONSerialization.jsonObject(with: Data(listed.body.utf8)) as? [String: Any]
        #expect(choices?["backgrounds"] as? [String] == ["beach.png", "damaged.png"], "the link is not offered: \(listed.body)")
        let changed = try await served.request("/api/settings", ["-X", "PUT", "-d", #"{"filter": "mono", "background": "beach.png", "stamp": "%H:%M"}"#])
        #expect(changed.status == 200, "\(changed.body)")
        let status = try JSONSerialization.jsonObject(with: Data(try await served.request("/api/status").body.utf8)) as? [String: Any]
        #expect(status?["filter"] as? String == "mono", "the running picture changed at once: \(String(describing: status))")
        // The picture itself: grey all over (the test camera's coloured bars gone), with the stamp's
        // hours and minutes drawn at its bottom right, as tesseract reads them in a snapshot. The
        // stamp sits on the moving test picture, which a read now and then gets wrong: snapshots are
        // read until one says the time (a picture without the stamp never does).
        let pictures = try TemporaryFolder()
        let snapshot = pictures.path("snapshot.jpg"), corner = pictures.path("corner.png")
        var (spread, read) = (Int.max, "")
        let stamped = await until(every: .milliseconds(300)) {
            let asked = Date()
            guard let taken = try? await served.request("/snapshot.jpg"), taken.status == 200,
                  (try? Data(taken.bytes).write(to: URL(fileURLWithPath: snapshot))) != nil,
                  let decoded = try? await ChildProcess.run("ffmpeg", ["-v", "error", "-i", snapshot, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]),
                  decoded.status == 0,
                  (try? await ChildProcess.run("ffmpeg", ["-v", "error", "-y", "-i", snapshot, "-vf", "crop=128:48:512:432", corner]))?.status == 0
            else { return false }
            let pixels = decoded.standardOutputBytes
            spread = stride(from: 0, to: pixels.count - 2, by: 3).reduce(0) { widest, index in
                let (r, g, b) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
                return max(widest, abs(r - g), abs(g - b))
            }
            read = (try? await WordsOnPictureTests.read(corner, letters: "0123456789:")) ?? ""
            return [asked, Date()].contains { read.contains(Self.hoursAndMinutes($0)) }
        }
        #expect(stamped, "the stamp's time at the bottom right of the picture; read \"\(read)\"")
        #expect(spread <= 12, "the picture is grey: its channels differ by \(spread) at most")
        for (body, words) in [(#"{"countdown": -1}"#, "countdown must be a number of seconds from 0 to 3600"),
                              (#"{"layout": "../two.json"}"#, "is not a template's file name"),
                              (#"{"layout": "three.json"}"#, "cannot be read from the templates' folder"),
                              (#"{"background": "link.png"}"#, "a symbolic link"),
                              (#"{"shots": 5, "layout": "two.json"}"#, "shots must be a whole number from 1 to 2"),
                              (#"{"filter": "sepiaa"}"#, "there is no filter"),
                              (#"{"print": true}"#, "this server has no printer"),
                              (#"{"countdown": "soon"}"#, "the settings are not as /api/settings says them"),
                              (#"{"filter": "mono+warm+cool+fade+noir+heat+chrome+sepia+mono"}"#, "9 filters are more than the 8 a picture takes"),
                              ("{\"stamp\": \"%H\(String(repeating: "\u{301}", count: 40_000))\"}", "longer than 800 bytes"),
                              (#"{"background": "damaged.png"}"#, "damaged.png")] {
            let refused = try await served.request("/api/settings", ["-X", "PUT", "-d", body])
            #expect(refused.status == 400 && refused.body.contains(words), "\(body): \(refused.status) \(refused.body)")
        }
        let anonymous = try await served.request("/api/settings", ["-X", "PUT", "-d", #"{"countdown": 0}"#], withToken: false)
        #expect(anonymous.status == 401, "\(anonymous.body)")
        let after = try JSONSerialization.jsonObject(with: Data(try await served.request("/api/settings").body.utf8)) as? [String: Any]
        #expect(after?["countdown"] as? Double == 3 && after?["filter"] as? String == "mono", "refused changes changed nothing: \(String(describing: after))")
    }

    @Test("A settings file that cannot be written: 500, and nothing changed, in memory nor on the picture; what a killed write left is removed at start")
    func unwritableSettings() async throws {
        let folder = try TemporaryFolder()
        // A process that no longer runs, as a write killed half-way leaves its temporary file.
        let gone = try #require((100_000...999_999).reversed().first { kill(pid_t($0), 0) != 0 && errno == ESRCH })
        let leftover = folder.path(".settings.json.\(gone).12345.tmp")
        try Data("{\"countdown\":".utf8).write(to: URL(fileURLWithPath: leftover))
        let served = try await ServedCamera(extra: ["--settings", folder.path("settings.json")])
        defer { served.process.send(SIGTERM) }
        #expect(!FileManager.default.fileExists(atPath: leftover), "the leftover of a killed write is gone")
        // The settings' folder taken away: the next write cannot be made.
        try FileManager.default.removeItem(atPath: folder.url.path)
        let refused = try await served.request("/api/settings", ["-X", "PUT", "-d", #"{"filter": "sepia", "countdown": 9}"#])
        #expect(refused.status == 500 && refused.body.contains("could not be kept") && refused.body.contains("nothing was changed"), "\(refused.body)")
        let after = try JSONSerialization.jsonObject(with: Data(try await served.request("/api/settings").body.utf8)) as? [String: Any]
        #expect(after?["countdown"] as? Double == 3 && after?["filter"] as? String == "", "\(String(describing: after))")
        let status = try JSONSerialization.jsonObject(with: Data(try await served.request("/api/status").body.utf8)) as? [String: Any]
        #expect(status?["filter"] as? String == "", "the running picture is as it was: \(String(describing: status))")
    }

    @Test("The page sets the booth's caption, clip, codec and screen colour: kept, shown again on a new visit, a wrong colour refused, a sample of no screen refused, and the next booth made with them",
          .enabled(if: PageTests.hasBrowser, "needs chromium, chromium-driver and python3-selenium"), .drivesBrowser)
    func boothPageSettings() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Browser/booth_settings.py").path
        let run = try await ChildProcess.run("/usr/bin/python3", [script, served.base])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect(seen["shown"] as? [String: String] == ["setcaption": "Anna & Ben", "setkey": "#00B140", "setanimation": "gif", "setcodec": "hevc",
                                                        "setcopies": "1"], "\(seen)")
        #expect(seen["refused"] as? String == "key_color must be green, blue or a colour as #RRGGBB", "\(seen)")
        #expect((seen["sample_refused"] as? String)?.hasPrefix("the picture's edges show no screen of one colour") == true
                && (seen["sample_refused"] as? String)?.contains("light the screen evenly") == true, "\(seen)")
        #expect(seen["animation"] as? [String] == ["gif"] && seen["shot_codecs"] as? [String] == ["hevc", "hevc"], "\(seen)")
        let kept = try await served.json("/api/settings")
        #expect(kept.object["caption"] as? String == "Anna & Ben" && kept.object["key_color"] as? String == "#00B140", "\(kept.object)")
    }
}
