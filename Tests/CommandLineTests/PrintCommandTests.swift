import Foundation
import TestSupport
import Testing

@Suite("Printing a booth's picture", .printsToIPP,
       .enabled(if: IPPPrinter.isAvailable, "needs cups-ipp-utils, avahi-daemon and dbus-daemon"))
struct PrintCommandTests {
    static let booth = ["booth", "--device", "test", "--resolution", "320x240", "--sink", "fakesink", "--shots", "2", "--countdown", "0",
                        "--show-shots", "0", "--show-result", "0", "--json"]

    @Test("booth --print sends its composed picture as one job, told as printing and printed; the printer keeps exactly that picture")
    func printsTheComposition() async throws {
        let printer = try await IPPPrinter()
        let camctl = try Camctl()
        let printed = try await camctl.run(Self.booth + ["--print", "--printer", printer.uri])
        #expect(printed.status == 0, "\(printed.standardError)")
        let objects = Camctl.objects(printed.standardOutput)
        let events = objects.compactMap { $0["event"] as? String }
        #expect(events.suffix(2) == ["printing", "printed"], "\(events)")
        let composed = try #require(Camctl.records(printed.standardOutput).first { $0["composed"] as? Bool == true }, "\(objects)")
        let picture = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(composed["path"] as? String))))
        #expect(try printer.documents() == [picture], "one job, the composed picture as the library keeps it")
    }

    @Test("capture --print --count 2 prints each photo as a job of its own, the library's file; a HEIC photo is printed as a JPEG of its picture")
    func printsEachPhoto() async throws {
        let printer = try await IPPPrinter()
        let camctl = try Camctl()
        let printed = try await camctl("capture", "--device", "test", "--resolution", "320x240", "--count", "2", "--print", "--printer", printer.uri)
        #expect(printed.status == 0, "\(printed.standardError)")
        let files = try printed.standardOutput.split(separator: "\n").map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: String($0)))) }
        let documents = try printer.documents()
        #expect(files.count == 2 && documents == files, "one job a photo, each the photo as kept")
        // A HEIC photo: the printer is sent a JPEG of the same picture, as libheif decodes the HEIC.
        let heic = try await camctl("capture", "--device", "test", "--resolution", "320x240", "--hevc", "--now", "--print", "--printer", printer.uri)
        #expect(heic.status == 0, "\(heic.standardError)")
        let kept = heic.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let all = try printer.documents()
        let sent = try #require(all.last)
        #expect(sent.starts(with: [0xff, 0xd8]) && all.count == 3, "a third job, a JPEG")
        let folder = try TemporaryFolder()
        try Data(sent).write(to: URL(fileURLWithPath: folder.path("sent.jpg")))
        #expect(try await ChildProcess.run("heif-convert", ["--quiet", kept, folder.path("kept.png")]).status == 0)
        var pixels: [[UInt8]] = []
        for (file, decoder) in [("sent.jpg", "jpegdec"), ("kept.png", "pngdec")] {
            let raw = folder.path(file + ".rgb")
            let decoded = try await ChildProcess.run("gst-launch-1.0", ["-q", "filesrc", "location=\(folder.path(file))", "!", decoder, "!", "videoconvert", "!",
                                                                       "video/x-raw,format=RGB,width=320,height=240", "!", "filesink", "location=\(raw)"])
            #expect(decoded.status == 0, "\(decoded.standardError)")
            pixels.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: raw))))
        }
        #expect(pixels[0].count == 320 * 240 * 3 && pixels[1].count == pixels[0].count)
        let difference = zip(pixels[0], pixels[1]).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / max(1, pixels[0].count)
        #expect(difference < 6, "the JPEG sent is the HEIC's picture: mean difference \(difference)")
    }

    @Test("serve --printer prints a library photo when the API asks, tells printing and printed, and prints no more than its limit of one picture")
    func printsOverTheAPI() async throws {
        let printer = try await IPPPrinter()
        let served = try await ServedCamera(extra: ["--printer", printer.uri, "--print-limit", "2"])
        defer { served.process.send(SIGTERM) }
        let listener = try await served.listenToEvents()
        defer { listener.send(SIGKILL) }
        #expect(try await served.json("/api/status").object["printer"] as? String == printer.uri)
        #expect(try await served.json("/api/capture", ["-X", "POST"]).status == 200)
        let asked = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "print", "id": 1}"#])
        #expect(asked.status == 200 && asked.object["outcome"] as? String == "printing" && asked.object["job"] as? Int == 1, "\(asked)")
        #expect(await listener.output(containing: #""event":"printed""#), "\(listener.outputSoFar)")
        let photo = try await served.json("/api/photos/1").object
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(photo["path"] as? String))))
        let documents = try printer.documents()
        #expect(documents == [file])
        let beyond = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "print", "id": 1, "copies": 2}"#])
        #expect(beyond.status == 409 && (beyond.object["error"] as? String)?.contains("printed copies") == true, "\(beyond)")
        let missing = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "print", "id": 9}"#])
        #expect(missing.status == 404, "\(missing)")
        // The count is the library's: a restart on it does not start it again.
        #expect(await served.stop().status == 0)
        let again = try await ServedCamera(camctl: served.camctl, extra: ["--printer", printer.uri, "--print-limit", "2"])
        defer { again.process.send(SIGTERM) }
        let afterRestart = try await again.json("/api/actions", ["-X", "POST", "-d", #"{"action": "print", "id": 1, "copies": 2}"#])
        #expect(afterRestart.status == 409, "\(afterRestart)")
        #expect(try await again.json("/api/actions", ["-X", "POST", "-d", #"{"action": "print", "id": 1}"#]).status == 200, "the second copy of two")
    }

    @Test("Copies are told sheet by sheet as the printer counts them out (1 of 2, 2 of 2, then printed), over the API and by capture --print --json")
    func sheetBySheet() async throws {
        let printer = try await IPPPrinter(countingSheets: true)
        let served = try await ServedCamera(extra: ["--printer", printer.uri, "--print-limit", "4"])
        defer { served.process.send(SIGTERM) }
        let listener = try await served.listenToEvents()
        defer { listener.send(SIGKILL) }
        #expect(try await served.json("/api/capture", ["-X", "POST"]).status == 200)
        let asked = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "print", "id": 1, "copies": 2}"#])
        let job = try #require(asked.object["job"] as? Int, "\(asked)")
        let sheet = { (number: Int) in #""event":"print_progress","job":\#(job),"number":\#(number),"of":2"# }
        #expect(await listener.output(containing: sheet(1)), "\(listener.outputSoFar)")
        #expect(!listener.outputSoFar.contains(#""event":"printed""#), "printed only once the last sheet is out")
        printer.releaseSheet(1, ofJob: job)
        #expect(await listener.output(containing: sheet(2)), "\(listener.outputSoFar)")
        printer.releaseSheet(2, ofJob: job)
        #expect(await listener.output(containing: #""event":"printed""#), "\(listener.outputSoFar)")

        // The command line tells the same, as events with --json.
        let capture = try served.camctl.start(["capture", "--device", "test", "--resolution", "320x240", "--print", "--printer", printer.uri,
                                               "--copies", "2", "--json"])
        let next = job + 1
        #expect(await capture.output(containing: #""event":"print_progress","job":\#(next),"number":1,"of":2"#), "\(capture.outputSoFar)")
        printer.releaseSheet(1, ofJob: next)
        #expect(await capture.output(containing: #""event":"print_progress","job":\#(next),"number":2,"of":2"#), "\(capture.outputSoFar)")
        printer.releaseSheet(2, ofJob: next)
        let ended = await capture.finished()
        #expect(ended.status == 0 && ended.standardOutput.contains(#""event":"printed""#), "\(ended.standardOutput) \(ended.standardError)")
    }

    @Test("A booth printed by its settings answers without waiting for a printer that never answers; the print goes on beside it")
    func boothNeverWaitsForPrinter() async throws {
        // A printer that takes the connection and never says a word.
        let silent = try ChildProcess.Running("/usr/bin/python3", ["-u", "-c", """
            import socket, time
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            s.listen(8)
            print(s.getsockname()[1])
            held = []
            while True:
                held.append(s.accept()[0])
            """])
        defer { silent.send(SIGKILL) }
        #expect(await until { Int(silent.outputSoFar.trimmingCharacters(in: .whitespacesAndNewlines)) != nil })
        let port = try #require(Int(silent.outputSoFar.trimmingCharacters(in: .whitespacesAndNewlines)))
        let served = try await ServedCamera(extra: ["--printer", "ipp://127.0.0.1:\(port)/ipp/print"])
        defer { served.process.send(SIGKILL) }
        let listener = try await served.listenToEvents()
        defer { listener.send(SIGKILL) }
        #expect(try await served.json("/api/settings", ["-X", "PUT", "-d", #"{"print": true, "countdown": 0, "shots": 1}"#]).status == 200)
        let booth = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "booth", "show_shots": 0, "show_result": 0}"#])
        #expect(booth.status == 200 && booth.object["outcome"] as? String == "booth_taken", "\(booth)")
        // The printer cannot have answered: the print neither printed nor failed yet when the booth answered.
        #expect(!listener.outputSoFar.contains(#""event":"print"#), "\(listener.outputSoFar)")
    }

    @Test("With printing on in the booth settings, each served booth's picture is printed once kept, as one job of the library's file")
    func printsBoothsBySetting() async throws {
        let printer = try await IPPPrinter()
        let served = try await ServedCamera(extra: ["--printer", printer.uri])
        defer { served.process.send(SIGTERM) }
        let listener = try await served.listenToEvents()
        defer { listener.send(SIGKILL) }
        let set = try await served.json("/api/settings", ["-X", "PUT", "-d", #"{"print": true, "countdown": 0, "shots": 2}"#])
        #expect(set.status == 200 && set.object["print"] as? Bool == true, "\(set)")
        let booth = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "booth", "show_shots": 0, "show_result": 0}"#])
        #expect(booth.status == 200 && booth.object["outcome"] as? String == "booth_taken", "\(booth)")
        #expect(await listener.output(containing: #""event":"printed""#), "\(listener.outputSoFar)")
        let photos = try await served.json("/api/photos").object["photos"] as? [[String: Any]] ?? []
        #expect(photos.count == 3, "two shots and the picture: \(photos)")
        let composed = try #require(photos.first { $0["width"] as? Int != 640 }, "the picture beside the 640x480 shots: \(photos)")
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(composed["path"] as? String))))
        #expect(try printer.documents() == [file], "one job, the booth's picture")
    }

    @Test("In headless Chromium, the page's Print button prints the picture just taken, then one chosen in the gallery: each a job of the library's file",
          .enabled(if: PageTests.hasBrowser, "needs chromium, chromium-driver and python3-selenium"))
    func printButton() async throws {
        let printer = try await IPPPrinter()
        let served = try await ServedCamera(extra: ["--printer", printer.uri])
        defer { served.process.send(SIGTERM) }
        let script = URL(fileURLWithPath: PageTests.script).deletingLastPathComponent().appendingPathComponent("print.py").path
        let run = try await ChildProcess.run("/usr/bin/python3", [script, served.base])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Bool],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect(seen == ["print_shown": true, "result_printed": true, "gallery_offered": true, "gallery_printed": true], "\(seen)")
        var files: [[UInt8]] = []
        for id in [2, 1] {
            let photo = try await served.json("/api/photos/\(id)").object
            files.append([UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(photo["path"] as? String)))))
        }
        let documents = try printer.documents()
        #expect(documents == files, "the photo just taken, then the one chosen in the gallery: \(documents.map(\.count)) \(files.map(\.count))")
    }

    @Test("Through a CUPS scheduler: a stopped queue holds the job and camctl says so (69, the picture kept); without a default printer, one sentence",
          .enabled(if: CUPSServer.isAvailable, "needs cups-daemon and cups-client"))
    func stoppedQueue() async throws {
        let printer = try await IPPPrinter()
        let cups = try await CUPSServer()
        try await cups.addQueue("booth", printingTo: printer.uri)
        try await cups.stop("booth")
        let camctl = try Camctl()
        let stopped = try await camctl.run(Self.booth + ["--print", "--printer", "booth"], environment: cups.environment)
        let account = stopped.status == 69 ? "" : await cups.account(of: "booth")
        #expect(stopped.status == 69, "\(stopped.standardError)\n\(account)")
        let lines = stopped.standardError.split(separator: "\n")
        #expect(lines.last?.hasPrefix("camctl: booth is stopped, and holds the job (1) until it is started again; "
            + "the picture was not printed, and is kept at ") == true, "\(stopped.standardError)")
        #expect(Camctl.objects(stopped.standardOutput).compactMap { $0["event"] as? String }.suffix(2) == ["printing", "print_failed"],
                "the job was taken, and told as failed as /api/events tells it")
        #expect(try await camctl.photos().count == 3, "the shots and their picture")
        let noDefault = try await camctl.run(Self.booth + ["--print"], environment: cups.environment)
        #expect(noDefault.status == 69 && noDefault.standardError.hasPrefix("camctl: there is no default printer"), "\(noDefault.standardError)")
        #expect(noDefault.standardError.split(separator: "\n").count == 1)
    }

    @Test("A printer that cannot be reached: one sentence, exit 69, before any shot")
    func unreachable() async throws {
        let camctl = try Camctl()
        let failed = try await camctl.run(Self.booth + ["--print", "--printer", "ipp://localhost:1/ipp/print"])
        #expect(failed.status == 69, "\(failed.standardError)")
        let lines = failed.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("cannot be reached") && lines[0].hasSuffix("; no photo was taken"), "\(failed.standardError)")
        #expect(try await camctl.photos().isEmpty, "found out before anyone posed")
        let misplaced = try await camctl.run(["booth", "--printer", "x"])
        #expect(misplaced.status == 64 && misplaced.standardError.contains("--printer goes with --print"), "\(misplaced.standardError)")
    }

    /// The mean absolute difference of two RGB pictures of one size, over every byte.
    private static func meanDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    /// The left or right half of an RGB picture `width` wide.
    private static func half(_ pixels: [UInt8], width: Int, right: Bool) -> [UInt8] {
        let rows = pixels.count / (width * 3), halfBytes = width / 2 * 3
        return (0..<rows).flatMap { row in pixels[(row * width * 3 + (right ? halfBytes : 0))...].prefix(halfBytes) }
    }

    @Test("booth --layout 1x4 --print --cut-strips: one job on 4x6 inch paper, whose document is the strip twice side by side, each half the strip at 2x6 inches")
    func cutsStrips() async throws {
        let printer = try await IPPPrinter(media: ["na_letter_8.5x11in", "na_index-4x6_4x6in", "na_5x7_5x7in"])
        let camctl = try Camctl()
        let printed = try await camctl.run(Self.booth + ["--shots", "4", "--layout", "1x4", "--print", "--printer", printer.uri, "--cut-strips"])
        #expect(printed.status == 0, "\(printed.standardError)")
        let composed = try #require(Camctl.records(printed.standardOutput).first { $0["composed"] as? Bool == true }?["path"] as? String)
        let documents = try printer.documents()
        try #require(documents.count == 1, "one job")
        let sheet = printer.spool.url.appendingPathComponent("sheet.jpg")
        try Data(documents[0]).write(to: sheet)
        let probed = try await RecordCommandTests.probe(sheet.path)
        #expect(probed["width"] == "1200" && probed["height"] == "1800", "4x6 inches at 300 dpi: \(probed)")
        let attributes = try #require(try printer.jobAttributes()[1], "the job's attributes")
        #expect(attributes["media"] == "na_index-4x6_4x6in", "\(attributes)")
        // Each half is the strip (672x2000, four 4:3 shots) fitted into 2x6 inches: compared
        // at a tenth of the size, after JPEG twice and scaling (documented bound: 12 of 255 levels;
        // the halves swapped with another picture's give over 40).
        let pixels = try await BoothCommandTests.frames(ofPicture: sheet.path, width: 120, height: 180)
        let strip = try await BoothCommandTests.frames(ofPicture: composed, width: 60, height: 180)
        let (left, right) = (Self.half(pixels, width: 120, right: false), Self.half(pixels, width: 120, right: true))
        #expect(Self.meanDifference(left, right) < 3, "the two strips are alike")
        #expect(Self.meanDifference(left, strip) < reviewedPictureBound, "the left half is the strip: \(Self.meanDifference(left, strip))")
        let refused = try await camctl.run(Self.booth + ["--print", "--cut-strips"])
        #expect(refused.status == 64 && refused.standardError.contains("use it with --layout 1x4"), "\(refused.standardError)")

        // A description file's printout prints the picture it composed last, the same way.
        let folder = try TemporaryFolder()
        let file = folder.path("strip.camctl")
        try """
            camera test
            resolution 320x240
            preview none
            repeat 4 {
                capture
            }
            compose strip
            printout printer \(printer.uri) cut-strips copies 2

            """.write(toFile: file, atomically: true, encoding: .utf8)
        // A printer by its address is a send to the network: only with --allow-raw-io.
        let unallowed = try await camctl.run(["run", file, "--json"])
        #expect(unallowed.status == 65 && unallowed.standardError.contains("sends to the network; a description file may do so only when run with --allow-raw-io"),
                "\(unallowed.standardError)")
        #expect(try printer.jobAttributes().count == 1, "nothing was sent")
        let ran = try await camctl.run(["run", file, "--json", "--allow-raw-io"])
        #expect(ran.status == 0, "\(ran.standardError)")
        #expect(Camctl.objects(ran.standardOutput).compactMap { $0["event"] as? String }.suffix(2) == ["printing", "printed"], "\(ran.standardOutput)")
        let second = try #require(try printer.jobAttributes()[2], "a second job")
        #expect(second["media"] == "na_index-4x6_4x6in" && second["copies"] == "2", "\(second)")
        try #require(try printer.documents().count == 2)
        try Data(try printer.documents()[1]).write(to: sheet)
        #expect(try await RecordCommandTests.probe(sheet.path)["height"] == "1800")
        try "camera test\nprintout\ncapture\n".write(toFile: file, atomically: true, encoding: .utf8)
        let early = try await camctl.run(["run", file])
        #expect(early.status == 64 && early.standardError.contains("printout has no picture to print"), "\(early.standardError)")
    }

    @Test("--media a printer does not take: one sentence naming the paper it takes, exit 69, before any shot and no job; a printer that fails the job: the picture kept")
    func mediaAndFailedJobs() async throws {
        let printer = try await IPPPrinter(media: ["na_index-4x6_4x6in", "na_5x7_5x7in"])
        let camctl = try Camctl()
        let refused = try await camctl.run(Self.booth + ["--print", "--printer", printer.uri, "--media", "a4"])
        #expect(refused.status == 69, "\(refused.standardError)")
        #expect(refused.standardError == "camctl: \(printer.uri) has no iso_a4_210x297mm paper; it takes na_index-4x6_4x6in, na_5x7_5x7in; "
            + "no photo was taken\n", "\(refused.standardError)")
        let documents = try printer.documents()
        #expect(documents.isEmpty)
        #expect(try await camctl.photos().isEmpty, "checked before the first shot: no guest posed for it")
        let onFiveBySeven = try await camctl.run(Self.booth + ["--print", "--printer", printer.uri, "--media", "5x7", "--copies", "2"])
        #expect(onFiveBySeven.status == 0, "\(onFiveBySeven.standardError)")
        let attributes = try #require(try printer.jobAttributes().values.first)
        #expect(attributes["media"] == "na_5x7_5x7in" && attributes["copies"] == "2", "\(attributes)")
        #expect(try await camctl.photos().count == 3, "the second booth's shots and picture")

        let failing = try await IPPPrinter(failing: true)
        let failed = try await camctl.run(Self.booth + ["--print", "--printer", failing.uri])
        #expect(failed.status == 69, "\(failed.standardError)")
        let lines = failed.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("the printer gave up the job") && lines[0].contains("the picture was not printed, and is kept at"),
                "\(failed.standardError)")
        // The reason is the job's or the printer's state, never a status that says all went well.
        #expect(!lines[0].lowercased().contains("success") && !lines[0].contains("no reason given"), "\(failed.standardError)")
        #expect(Camctl.objects(failed.standardOutput).compactMap { $0["event"] as? String }.suffix(2) == ["printing", "print_failed"],
                "\(failed.standardOutput)")
    }

    @Test("A served booth prints: the kiosk tells the guest it is printing and then printed; the owner's page and GET /api/printer say the printer's state, supplies and copies printed",
          .enabled(if: PageTests.hasBrowser, "needs chromium, chromium-driver and python3-selenium"))
    func printerSeenOnPages() async throws {
        let printer = try await IPPPrinter(formats: "image/jpeg", media: ["na_index-4x6_4x6in"],
                                           attributes: [#"ATTR name marker-names "Ribbon","Photo paper""#, "ATTR integer marker-levels 40,-3",
                                                        "ATTR keyword marker-types ink-ribbon,other"])
        let served = try await ServedCamera(extra: ["--printer", printer.uri])
        defer { served.process.send(SIGTERM) }
        // Five copies asked for, three the most of one picture this server prints (--print-limit's 3).
        let set = try await served.request("/api/settings", ["-X", "PUT", "-d", #"{"countdown": 0, "shots": 1, "print": true, "copies": 5, "attract_after": 3600}"#])
        #expect(set.status == 200, "\(set.body)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Browser/printer.py").path
        let run = try await ChildProcess.run("/usr/bin/python3", [script, served.base])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect(seen["kiosk_printed_shown"] as? Bool == true, "\(seen)")
        #expect(seen["owner_printer_line"] as? String == "Printer \(printer.uri): idle · Ribbon 40%, Photo paper ? · 3 printed", "\(seen)")
        let jobs = try printer.jobAttributes()
        #expect(jobs[1]?["copies"] == "3", "\(jobs)")
        let state = try await served.json("/api/printer")
        #expect(state.object["state"] as? String == "idle" && state.object["printed"] as? Int == 3, "\(state.object)")
        let supplies = state.object["supplies"] as? [[String: Any]]
        #expect(supplies?.map { $0["name"] as? String } == ["Ribbon", "Photo paper"] && supplies?.first?["level"] as? Int == 40
                && supplies?.last?["level"] == nil, "\(state.object)")
    }
}
