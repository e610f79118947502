import Foundation
import TestSupport
import Testing

/// Inputs that crashed or hung camctl: each now ends in one sentence and a documented exit code,
/// quickly, with the library as it was.
@Suite("Hostile input: no crash, no hang", .startsPrograms)
struct HostileInputTests {
    /// What a failure printed: one line, starting with `camctl:`.
    static func expectOneSentence(_ result: ChildProcess.Result, _ status: Int32, containing text: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.hasPrefix("camctl: ") && result.standardError.contains(text), "\(result.standardError)",
                sourceLocation: sourceLocation)
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)", sourceLocation: sourceLocation)
    }

    static let noDisplay = ["DISPLAY": "", "WAYLAND_DISPLAY": ""]

    @Test("With no display, the automatic sink is refused with what to use, never DirectFB's crash", arguments: [
        ["preview", "--device", "test", "--duration", "1"],
        ["booth", "--device", "test", "--countdown", "0"],
        ["capture", "--device", "test", "--countdown", "1", "--sink", "autovideosink"],
    ])
    func noDisplay(arguments: [String]) async throws {
        let camctl = try Camctl()
        let result = try await camctl.run(arguments, environment: Self.noDisplay)
        Self.expectOneSentence(result, 70, containing: "there is no display")
        #expect(result.standardError.contains("--sink fakesink") && result.standardError.contains("kmssink"))
        #expect(try await camctl.photos().isEmpty)
    }

    @Test("waylandsink without a Wayland session, and kmssink without a graphics card, are refused in one sentence before the camera starts, with no library's noise")
    func displaySinksWithoutDisplay() async throws {
        let camctl = try Camctl()
        let wayland = try await camctl.run(["preview", "--device", "test", "--sink", "waylandsink", "--duration", "1"], environment: Self.noDisplay)
        Self.expectOneSentence(wayland, 70, containing: "waylandsink needs a Wayland session, and WAYLAND_DISPLAY is not set")
        guard !FileManager.default.fileExists(atPath: "/dev/dri") else { return }  // a machine with a graphics card may show it
        let kms = try await camctl.run(["preview", "--device", "test", "--sink", "kmssink", "--duration", "1"])
        Self.expectOneSentence(kms, 70, containing: "kmssink draws on a graphics card's screen, and this machine has none")
    }

    @Test("autovideosink never falls through to DirectFB, which crashes without a display")
    func directFBRankedOut() async throws {
        // A display that does not exist: the display sinks fail, and autovideosink goes on down
        // its list; DirectFB, ranked out, is not on it (gst-launch-1.0's autovideosink segfaults here).
        // GStreamer's own log of autovideosink's choice says which sinks it tried.
        let folder = try TemporaryFolder()
        let log = folder.path("gst.log")
        let result = try await Camctl().run(["preview", "--device", "test", "--duration", "1"],
                                            environment: ["DISPLAY": ":9999", "GST_DEBUG": "autodetect:5", "GST_DEBUG_FILE": log,
                                                          "GST_DEBUG_NO_COLOR": "1"])
        // The preview ran its second to the end on what autovideosink found, no crash, no refusal.
        #expect(result.status == 0, "\(result.status) \(result.standardError)")
        #expect(!result.standardError.contains("camctl: "), "\(result.standardError)")
        let tried = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .compactMap { line in line.range(of: "> Testing ").map { String(line[$0.upperBound...]) } }
        #expect(tried.contains("ximagesink"), "autovideosink went down its list past the display's sinks: \(tried)")
        #expect(!tried.contains("dfbvideosink"), "DirectFB was never tried: \(tried)")
    }

    @Test("A FIFO as a file camera, a drawing, an overlay or a photo is refused at once", arguments: [
        (["capture", "--device", "file:FIFO", "--no-library", "--output", "/dev/null"], Int32(65), "is a FIFO"),
        (["capture", "--device", "test", "--overlay", "FIFO", "--no-library", "--output", "/dev/null"], Int32(64), "is a FIFO"),
        (["overlay", "PHOTO", "FIFO", "--output", "OUT"], Int32(64), "is a FIFO"),
        (["overlay", "FIFO", "DRAWING", "--output", "OUT"], Int32(65), "is a FIFO"),
        (["run", "FIFO", "--device", "test"], Int32(64), "is a FIFO"),
    ])
    func fifos(arguments: [String], status: Int32, message: String) async throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let photo = folder.path("photo.jpg"), drawing = folder.path("drawing.png")
        try await Camctl.testPicture(drawing, width: 64, height: 48)
        #expect(try await Camctl()("capture", "--device", "test", "--resolution", "320x240", "--no-library", "--output", photo).status == 0)
        let replaced = arguments.map {
            $0.replacingOccurrences(of: "FIFO", with: fifo).replacingOccurrences(of: "PHOTO", with: photo)
                .replacingOccurrences(of: "DRAWING", with: drawing).replacingOccurrences(of: "OUT", with: folder.path("out.jpg"))
        }
        // Refused, not waited on: a camctl that opened the FIFO would wait until the run's hang
        // guard killed it, and say nothing.
        let result = try await Camctl().run(replaced)
        Self.expectOneSentence(result, status, containing: message)
    }

    @Test("A SIGUSR1 sent while camctl starts is a photo once the camera is ready, never a death")
    func earlyPhotoRequest() async throws {
        let camctl = try Camctl()
        for attempt in 0..<5 {
            let run = try camctl.start(["preview", "--device", "test", "--sink", "fakesink", "--duration", "3", "--json"])
            // As early as the process can be told apart from its loader, and a little later each time.
            #expect(await run.handling(SIGUSR1))
            try await Task.sleep(for: .milliseconds(attempt * 3))
            run.send(SIGUSR1)
            let result = await run.finished(timeout: 30)
            #expect(result.status == 0, "attempt \(attempt): \(result.status) \(result.standardError)")
        }
        #expect(try await camctl.photos().count == 5)
    }

    @Test("SIGTERM and SIGINT while camctl starts end it with 130 and a sentence", arguments: [SIGTERM, SIGINT])
    func earlyInterrupt(signal: Int32) async throws {
        let camctl = try Camctl()
        for attempt in 0..<5 {
            let run = try camctl.start(["capture", "--device", "test", "--count", "3", "--interval", "1"])
            #expect(await run.handling(signal))
            try await Task.sleep(for: .milliseconds(attempt * 3))
            run.send(signal)
            let result = await run.finished(timeout: 30)
            #expect(result.status == 130, "attempt \(attempt): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains("interrupted"), "\(result.standardError)")
        }
    }

    /// `capture --count 2` whose hook, after the first photo, runs `first`, writes its shell's
    /// process id to `hook-pid` in the folder, sleeps 30 s, then writes `late` there.
    static func captureWithSleepingHook(first: String = ":", environment: [String: String] = [:]) throws
        -> (camctl: Camctl, folder: TemporaryFolder, run: ChildProcess.Running) {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let hook = "\(first); echo $$ > \(folder.path("hook-pid")); sleep 30; echo late > \(folder.path("late"))"
        return (camctl, folder, try camctl.start(["capture", "--device", "test", "--count", "2", "--exec", hook], environment: environment))
    }

    /// The process id a hook wrote to `file` (`echo $$ > file`); `nil` before it has.
    static func pid(writtenIn file: String) -> Int32? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test("SIGTERM during an --exec hook ends the hook and its children, says so, and exits 130")
    func interruptDuringHook() async throws {
        let (camctl, folder, run) = try Self.captureWithSleepingHook()
        let marker = folder.path("hook-pid")
        // Interrupted once the hook's shell waits in its `sleep 30` (the shell's child).
        let hookShell = { Self.pid(writtenIn: marker) }
        func sleeping(_ shell: Int32) -> Bool {
            let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
            return !children.trimmingCharacters(in: .whitespaces).isEmpty
        }
        #expect(await until { hookShell().map(sleeping) == true }, "the hook runs its sleep")
        let pid = try #require(hookShell())
        run.send(SIGTERM)
        let result = await run.finished(timeout: 60)
        // Ended before the hook's 30 seconds: the hook never got to its last command.
        #expect(!FileManager.default.fileExists(atPath: folder.path("late")), "camctl did not wait for the hook's 30 seconds")
        #expect(result.status == 130, "\(result.standardError)")
        #expect(result.standardError.contains("--exec") && result.standardError.contains("interrupted"), "\(result.standardError)")
        #expect(await until { kill(pid, 0) != 0 }, "the hook's shell is gone")
        #expect(!FileManager.default.fileExists(atPath: folder.path("late")), "ended, not left to finish its sleep")
        #expect(try await camctl.photos().count == 1, "the photo taken before the interrupt is kept")
    }

    @Test("An interrupted run that cannot stop in its grace ($CAMCTL_STOP_GRACE; a hook ignoring SIGTERM) is ended: the hook killed, the reason said, 130")
    func interruptPastGrace() async throws {
        // The hook's shell and its sleep ignore SIGTERM, so the clean stop waits for them.
        let (camctl, folder, run) = try Self.captureWithSleepingHook(first: "trap '' TERM", environment: ["CAMCTL_STOP_GRACE": "0.5"])
        let marker = folder.path("hook-pid")
        #expect(await until { Self.pid(writtenIn: marker) != nil }, "the hook runs")
        let pid = try #require(Self.pid(writtenIn: marker))
        run.send(SIGTERM)
        let result = await run.finished(timeout: 60)
        #expect(result.status == 130, "\(result.standardError)")
        #expect(result.standardError.contains("interrupted, and the run did not stop within 0.5 seconds, so it was ended"), "\(result.standardError)")
        #expect(await until { kill(pid, 0) != 0 }, "the hook's shell is killed")
        #expect(!FileManager.default.fileExists(atPath: folder.path("late")))
        #expect(try await camctl.photos().count == 1, "the photo taken before the interrupt is kept")
    }

    @Test("A description file nesting repeat blocks 30,000 deep is refused at its place, dry run or not", arguments: [true, false])
    func deepNesting(dryRun: Bool) async throws {
        let folder = try TemporaryFolder()
        let file = folder.path("deep.camctl")
        let depth = 30_000
        try Data((String(repeating: "repeat 2 {\n", count: depth) + "capture\n" + String(repeating: "}\n", count: depth)).utf8)
            .write(to: URL(fileURLWithPath: file))
        let result = try await Camctl().run(["run", file, "--device", "test"] + (dryRun ? ["--dry-run"] : []))
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("\(file):33:1: repeat blocks nest at most 32 deep"), "\(result.standardError)")
    }

    @Test("A HEIC with overflowing extents in the library is skipped, named, and every command still works")
    func craftedHEICInLibrary() async throws {
        let camctl = try Camctl()
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        let crafted = camctl.library.path("20270115-080000.000-aaaaaa.heic")
        try Data(HostileBytes.overflowingHEIF).write(to: URL(fileURLWithPath: crafted))
        let listed = try await camctl("library", "list", "--json")
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(Camctl.objects(listed.standardOutput).count == 1)
        let reconciled = try await camctl("library", "process")  // a command that writes the library reconciles it
        #expect(reconciled.status == 0, "\(reconciled.standardError)")
        #expect(reconciled.standardError.contains(crafted), "the skipped file is named: \(reconciled.standardError)")
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        #expect(try await camctl.photos().count == 2)
        #expect(FileManager.default.fileExists(atPath: crafted), "not the library's to delete")
    }

    @Test("A GIF in the library that says it is 65535x65535 is named and left off a sheet, never decoded; the sheet has the rest")
    func giantGIFOnSheet() async throws {
        let camctl = try Camctl()
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        // A GIF's screen of 65535x65535 with one 1x1 image in it.
        let giant: [UInt8] = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0, 0, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x00,
                                                    0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
        let crafted = camctl.library.path("20270115-080000.000-aaaaaa.gif")
        try Data(giant).write(to: URL(fileURLWithPath: crafted))
        #expect(try await camctl("library", "process").status == 0)
        let sheet = try await camctl("library", "sheet", "--output", camctl.library.path("sheet.jpg"), "--json")
        #expect(sheet.status == 0, "\(sheet.standardError)")
        #expect(sheet.standardError.contains("(\(crafted)) has no JPEG picture of a camera's size to show; it is left off the sheet"),
                "\(sheet.standardError)")
        #expect(Camctl.objects(sheet.standardOutput).first?["photos"] as? Int == 1, "\(sheet.standardOutput)")
    }

    @Test("overlay on a JPEG whose Exif segment is 2 to 7 bytes long works, keeping no EXIF", arguments: 2...7)
    func shortExif(length: Int) async throws {
        let folder = try TemporaryFolder()
        let photo = folder.path("photo.jpg"), drawing = folder.path("drawing.png")
        try await Camctl.testPicture(drawing, width: 64, height: 48)
        #expect(try await Camctl()("capture", "--device", "test", "--resolution", "320x240", "--no-library", "--output", photo).status == 0)
        // The photo's APP1 segment (right after the start) shortened to `length`, its bytes kept after it.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        #expect(bytes[2] == 0xFF && bytes[3] == 0xE1)
        let original = Int(bytes[4]) << 8 | Int(bytes[5])
        bytes.replaceSubrange(4..<6, with: [UInt8(length >> 8), UInt8(length & 0xFF)])
        bytes.replaceSubrange((4 + length)..<(4 + original), with: [])
        try Data(bytes).write(to: URL(fileURLWithPath: photo))
        let result = try await Camctl()("overlay", photo, drawing, "--output", folder.path("out.jpg"))
        #expect([0, 65].contains(result.status), "\(result.standardError)")
        #expect(result.status == 0 || result.standardError.hasPrefix("camctl: "))
    }
}

/// Pictures from outside that declare a giant size in a small file: refused from their headers
/// before any decoder takes memory for them.
@Suite("Pictures declaring more pixels than camctl decodes", .startsPrograms)
struct PictureBudgetTests {
    /// `bytes` with the last occurrence of `marker` (a JPEG's own frame header comes after its
    /// EXIF thumbnail's) followed at `offset` by `width` and `height`, each `size` bytes big-endian.
    static func declaring(_ bytes: [UInt8], marker: [UInt8], offset: Int, size: Int, width: Int, height: Int) throws -> [UInt8] {
        let start = try #require((0...(bytes.count - marker.count)).last { Array(bytes[$0 ..< $0 + marker.count]) == marker })
        var patched = bytes
        for (index, value) in [width, height].enumerated() {
            for byte in 0..<size {
                patched[start + offset + index * size + byte] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - byte)))
            }
        }
        return patched
    }

    @Test("overlay on a 30000x30000 JPEG or a 16384x16384 HEIC of a few KB: one sentence, exit 65, in little memory")
    func giantPhotos() async throws {
        let folder = try TemporaryFolder()
        let (photo, drawing) = try await OverlayCommandTests.fixtures(in: folder)
        let heic = folder.path("photo.heic")
        #expect(try await Camctl().run(["capture", "--device", "test", "--resolution", "320x240", "--hevc", "--no-library", "--output", heic]).status == 0)
        let jpeg = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        // The SOF0 segment: marker, length (2), precision (1), then height and width.
        let bigJPEG = try Self.declaring(jpeg, marker: [0xFF, 0xC0], offset: 5, size: 2, width: 30000, height: 30000)
        // ispe: its type, version and flags (4), then width and height of 4 bytes each.
        let bigHEIC = try Self.declaring(try [UInt8](Data(contentsOf: URL(fileURLWithPath: heic))), marker: Array("ispe".utf8), offset: 8,
                                         size: 4, width: 16384, height: 16384)
        for (name, bytes) in [("big.jpg", bigJPEG), ("big.heic", bigHEIC)] {
            try Data(bytes).write(to: URL(fileURLWithPath: folder.path(name)))
            let result = try await ChildProcess.run("/usr/bin/time", ["-f", "%M", ChildProcess.buildFolder.appendingPathComponent("camctl").path, "overlay", folder.path(name), drawing,
                                                                       "--no-library", "--output", folder.path("out-\(name)")])
            let lines = result.standardError.split(separator: "\n")
            #expect(result.status == 65 && lines.first?.hasPrefix("camctl: ") == true && lines.first?.contains("megapixels") == true,
                    "\(name): \(result.standardError)")
            // Its peak in KiB: far below the gigabytes such a picture decodes to.
            #expect((lines.last.flatMap { Int($0) } ?? .max) < 400_000, "\(name): \(result.standardError)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out-\(name)")))
        }
    }
}

/// Words camctl did not write (a photo's device from another node, a printer's message, a node's
/// status) reach the terminal without control characters, on the lines camctl meant.
@Suite("Outside text on the terminal", .startsPrograms)
struct OutsideTextTests {
    @Test("A device name holding escape sequences and a line break is listed on its own line, without them")
    func deviceName() async throws {
        let camctl = try Camctl()
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        let hostile = "char(27) || '[2J' || char(27) || ']0;owned' || char(7) || 'evil' || char(10) || 'camctl: fake line' || char(8238)"
        let tampered = try await ChildProcess.run("sqlite3", [camctl.library.path("library.sqlite"), "UPDATE photos SET device = \(hostile)"])
        #expect(tampered.status == 0, "\(tampered.standardError)")
        for command in [["library", "list"], ["library", "show", "1"]] {
            let listed = try await camctl.run(command)
            #expect(listed.status == 0, "\(listed.standardError)")
            let text = listed.standardOutput + listed.standardError
            #expect(!text.unicodeScalars.contains { $0.value == 27 || $0.value == 7 || $0.value == 8 || $0.value == 0x202E }, "\(command): \(text.debugDescription)")
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("camctl: fake") }, "\(command): \(text)")
            #expect(text.contains("evilcamctl: fake line") || text.contains("[2J"), "\(command): \(text)")
        }
    }
}
