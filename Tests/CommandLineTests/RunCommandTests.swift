import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl run: description files", .startsPrograms)
struct RunCommandTests {
    /// The repository's pipelines/ folder.
    static let pipelines: URL = {
        var folder = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("pipelines").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("pipelines")
    }()

    /// Each shipped file with the --set values that make it quick, and the photos it then takes.
    static let shipped: [(String, [String], Int)] = [
        ("preview.camctl", ["sink=fakesink", "seconds=1"], 0),
        ("booth.camctl", ["sink=fakesink", "delay=0.2", "shots=4"], 5),
        ("burst.camctl", ["photos=5"], 5),
        ("timelapse.camctl", ["every=0.3", "count=3"], 3),
        ("filters.camctl", ["sink=fakesink", "delay=0.2"], 2),
        ("raw-source.camctl", ["sink=fakesink", "count=2"], 2),
        ("looks.camctl", ["sink=fakesink", "delay=0"], 4),
        ("clip.camctl", ["seconds=1"], 3),
    ]

    @Test("Every file in pipelines/ runs to completion on the test camera, its photos in the library", arguments: shipped)
    func shippedFiles(name: String, settings: [String], photos: Int) async throws {
        let camctl = try Camctl()
        let output = try TemporaryFolder()
        let result = try await camctl.run(["run", Self.pipelines.appendingPathComponent(name).path, "--device", "test", "--json"]
            + settings.flatMap { ["--set", $0] }, environment: [:], in: output.url)
        #expect(result.status == 0, "\(result.standardError)")
        let saved = Camctl.records(result.standardOutput).filter { $0["path"] != nil }
        #expect(saved.count == photos, "\(result.standardOutput)")
        #expect(try await camctl.photos().count == photos)
    }

    @Test("A burst of 3000 runs in the memory of a burst of 10 and its memory budget")
    func burstMemoryIsFlat() async throws {
        let folder = try TemporaryFolder()
        func peakKilobytes(photos: Int) async throws -> (kilobytes: Int, saved: Int, skipped: Int) {
            let file = try folder.file("burst\(photos).camctl", holding: "camera test\nresolution 320x240@240\nburst \(photos)\n")
            let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
            let result = try await ChildProcess.run("/usr/bin/time", ["-f", "peak %M", camctl, "run", file, "--json", "--burst-memory", "16",
                                                                "--library", folder.path("library\(photos)")])
            #expect(result.status == 0, "\(result.standardError.suffix(500))")
            let objects = Camctl.objects(result.standardOutput)
            let skipped = objects.filter { $0["event"] as? String == "burst_skipped" }.flatMap { $0["frames"] as? [Int] ?? [] }
            let peak = result.standardError.firstMatch(of: /peak ([0-9]+)/).flatMap { Int($0.1) } ?? 0
            return (peak, objects.filter { $0["path"] != nil }.count, skipped.count)
        }
        let small = try await peakKilobytes(photos: 10), large = try await peakKilobytes(photos: 3000)
        #expect(small.saved == 10 && large.saved == 3000)
        // A busy machine lets the camera outrun the encoder, and the burst fills its 16 MiB, counted
        // in raw frame bytes: the buffers' and photos' own overhead comes on top (18 MiB of growth
        // measured with six busy loops beside it), and the photos' records (about a kilobyte each).
        // A photo's data kept until the burst ends (about 21 KB a photo at 320x240, 63 MB here)
        // passes the bound whether the machine is busy or not.
        #expect(large.kilobytes - small.kilobytes <= 40 * 1024,
                "peak \(large.kilobytes) KB for 3000 photos against \(small.kilobytes) KB for 10")
    }

    @Test("A burst whose camera outruns the encoder past --burst-memory lets frames pass and names them")
    func burstLetsFramesPass() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        try "camera test\nresolution 1920x1080@240\nburst 40\n".write(toFile: folder.path("burst.camctl"), atomically: true, encoding: .utf8)
        let result = try await camctl.run(["run", folder.path("burst.camctl"), "--json", "--burst-memory", "16"])
        #expect(result.status == 0, "\(result.standardError)")
        let objects = Camctl.objects(result.standardOutput)
        #expect(objects.filter { $0["path"] != nil }.count == 40)
        let skipped = objects.first { $0["event"] as? String == "burst_skipped" }?["frames"] as? [Int] ?? []
        #expect(!skipped.isEmpty && result.standardError.contains("the burst let \(skipped.count) frame"), "\(result.standardError)")
    }

    @Test("The raw-source file runs from its own gst-launch source")
    func rawSource() async throws {
        let camctl = try Camctl()
        let result = try await camctl.run(["run", Self.pipelines.appendingPathComponent("raw-source.camctl").path,
                                     "--set", "sink=fakesink", "--set", "count=1", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let photo = try #require(Camctl.objects(result.standardOutput).first { $0["path"] != nil })
        #expect(photo["width"] as? Int == 640 && photo["device"] as? String == "Custom source")
    }

    @Test("Image words change the running camera's picture: each photo has the look and framing set before it")
    func looksChangeLive() async throws {
        let camctl = try Camctl()
        let result = try await camctl.run(["run", Self.pipelines.appendingPathComponent("looks.camctl").path, "--device", "test",
                                     "--set", "sink=fakesink", "--set", "delay=0", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let paths = Camctl.objects(result.standardOutput).compactMap { $0["path"] as? String }
        try #require(paths.count == 4)
        // aspect 3:2 of 1280x720 is 1080x720 for every photo; the second is sepia (red over green over blue).
        for path in paths { #expect(try await Camctl.exif(path, "ImageSize") == ["1080x720"]) }
        let mean = try await ChildProcess.run("ffmpeg", ["-v", "error", "-i", paths[1], "-vf", "scale=1:1:flags=area",
                                                   "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).standardOutputBytes
        #expect(mean.count == 3 && mean[0] > mean[1] && mean[1] > mean[2], "sepia mean \(Array(mean))")
    }

    @Test("The filter chain reaches the photos: a mono filter gives R = G = B")
    func filtersApply() async throws {
        let camctl = try Camctl()
        let result = try await camctl.run(["run", Self.pipelines.appendingPathComponent("filters.camctl").path, "--device", "test",
                                     "--set", "sink=fakesink", "--set", "delay=0", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let path = try #require(Camctl.records(result.standardOutput).first?["path"] as? String)
        let pixels = try await ChildProcess.run("ffmpeg", ["-loglevel", "error", "-i", path, "-vf", "scale=64:36", "-f", "rawvideo",
                                                     "-pix_fmt", "rgb24", "-"]).standardOutputBytes
        #expect(pixels.count == 64 * 36 * 3)
        var spread = 0
        for index in stride(from: 0, to: pixels.count - 2, by: 3) {
            let channels = [pixels[index], pixels[index + 1], pixels[index + 2]].map(Int.init)
            spread = max(spread, (channels.max() ?? 0) - (channels.min() ?? 0))
        }
        #expect(spread <= 12, "colour left in a black-and-white photo: \(spread)")
    }

    @Test("--dry-run prints a pipeline gst-launch-1.0 runs, and the steps, without a camera; its output is stable")
    func dryRun() async throws {
        let camctl = try Camctl()
        let file = Self.pipelines.appendingPathComponent("filters.camctl").path
        let first = try await camctl("run", file, "--device", "test", "--set", "sink=fakesink", "--dry-run")
        let second = try await camctl("run", file, "--device", "test", "--set", "sink=fakesink", "--dry-run")
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput == second.standardOutput)
        let lines = first.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.dropFirst(2).prefix(3) == ["countdown 3", "capture", "pause preview"])
        // The test camera is live and endless; gst-launch gets a few buffers of it.
        let description = lines[0].replacingOccurrences(of: "videotestsrc name=camera", with: "videotestsrc name=camera num-buffers=5")
        let launched = try await ChildProcess.run("gst-launch-1.0", ["-q"] + description.split(separator: " ").map(String.init))
        #expect(launched.status == 0, "\(launched.standardError)")
        #expect(try await camctl.photos().isEmpty, "a dry run takes no photo")
    }

    @Test("print shows no escape sequence or reordering mark, in a dry run as in a run; a dry run needs no display for its preview")
    func printIsTerminalSafe() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let printing = "print \"a\u{1B}[31mb\u{202E}c\u{7}d\"\n"
        let file = try folder.file("print.camctl", holding: "camera test\nresolution 320x240\npreview ximagesink\n" + printing)
        let dry = try await camctl.run(["run", file, "--dry-run"], environment: ["DISPLAY": ""])
        #expect(dry.status == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.hasSuffix("print \"a[31mbcd\"\n"), "\(dry.standardOutput)")
        let run = try folder.file("run.camctl", holding: "camera test\nresolution 320x240\npreview fakesink\n" + printing)
        let ran = try await camctl("run", run, "--no-library")
        #expect(ran.status == 0 && ran.standardOutput == "a[31mbcd\n", "\(ran.standardOutput) \(ran.standardError)")
    }

    static let malformed: [(String, String)] = [
        ("snap\n", "1:1: unknown step \"snap\"; expected a setting"),
        ("countdown soon\n", "1:11: \"soon\" is not a number of seconds"),
        ("repeat 2 {\ncapture\n", "1:1: the repeat block opened here is not closed"),
        ("capture fast\n", "1:9: capture has no option \"fast\""),
        ("filter \"videobalance saturation=banana\"\ncapture\n", "1:8: GStreamer cannot read this fragment"),
        ("filter \"nosuchelement\"\ncapture\n", "1:8: GStreamer cannot read this fragment"),
        ("", "1:1: the file has no steps"),
        ("capture\n\u{7}\u{0}garbage\n", "2:1: a control character (code 7) is not allowed"),
    ]

    @Test("Malformed files give FILE:LINE:COLUMN and exit code 65, before any camera opens", arguments: malformed)
    func malformedFiles(text: String, message: String) async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let file = try folder.file("bad.camctl", holding: text)
        let result = try await camctl("run", file, "--device", "test")
        #expect(result.status == 65)
        #expect(result.standardError.hasPrefix("\(file):\(message)"), "\(result.standardError)")
        #expect(result.standardError.hasSuffix("nothing was run\n"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test("Binary garbage and a 10 MB line are refused quickly with their place")
    func hostileFiles() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let garbage = folder.path("garbage.camctl")
        try Data((0..<65_536).map { _ in UInt8.random(in: 0...255) }).write(to: URL(fileURLWithPath: garbage))
        let refused = try await camctl("run", garbage, "--device", "test")
        #expect(refused.status == 65)
        #expect(refused.standardError.hasPrefix("\(garbage):"))
        let long = folder.path("long.camctl")
        try Data(("capture " + String(repeating: "x", count: 10_000_000) + "\n").utf8).write(to: URL(fileURLWithPath: long))
        let tooLong = try await camctl("run", long, "--device", "test")
        #expect(tooLong.status == 65)
        #expect(tooLong.standardError.hasPrefix("\(long):1:9: capture has no option"))
    }

    @Test("Ctrl-C during a run keeps whole photos, stops cleanly and exits 130")
    func interrupt() async throws {
        let camctl = try Camctl()
        let output = try TemporaryFolder()
        let run = try camctl.start(["run", Self.pipelines.appendingPathComponent("timelapse.camctl").path, "--device", "test",
                                    "--set", "every=0.3", "--set", "count=100"], in: output.url)
        // Interrupted once the first photo is reported, however long a loaded machine takes to make it.
        #expect(await run.output(containing: "\n", timeout: 120), "no photo reported: \(run.outputSoFar)")
        run.send(SIGINT)
        // The photo in hand, a 12-megapixel HEIC encoded at once for its copy, is finished first: three
        // seconds on a quiet machine, many more on a loaded one; the limit only catches a hang.
        let result = await run.finished(timeout: 180)
        #expect(result.status == 130, "\(result.standardError)")
        let reported = result.standardOutput.split(separator: "\n").map(String.init)
        let kept = Set(try await camctl.photos().compactMap { $0["path"] as? String })
        #expect(!reported.isEmpty && reported.allSatisfy(kept.contains), "every photo reported is kept: \(reported) of \(kept)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: camctl.library.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("SIGINT or SIGTERM during a burst step stops the burst itself: the photos it took are kept, exit 130, nothing ended by force",
          arguments: [SIGINT, SIGTERM])
    func interruptBurst(signal: Int32) async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let file = try folder.file("burst.camctl", holding: "camera test\nresolution 320x240\npreview fakesink\nburst 100000\n")
        let run = try camctl.start(["run", file])
        #expect(await run.output(containing: ".jpg\n"), "the burst's first photo is reported")
        run.send(signal)
        let result = await run.finished(timeout: 120)
        #expect(result.status == 130, "\(result.standardError)")
        #expect(result.standardError == "camctl: interrupted; the photos taken so far are saved\n", "\(result.standardError)")
        let reported = result.standardOutput.split(separator: "\n").map(String.init)
        let kept = Set(try await camctl.photos().compactMap { $0["path"] as? String })
        #expect(!reported.isEmpty && Set(reported) == kept, "every photo taken is reported and kept: \(reported.count) of \(kept.count)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: camctl.library.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("A dry run checks and prints on a machine with no display, its preview's automatic sink never opened")
    func dryRunWithoutDisplay() async throws {
        let pipelines = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../pipelines/booth.camctl").path
        let result = try await Camctl().run(["run", "--dry-run", pipelines], environment: HostileInputTests.noDisplay)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("autovideosink"), "\(result.standardOutput)")
    }

    @Test("overlay in a description file reads a file: refused without --allow-raw-io, in its own sentence")
    func overlayNeedsRawIO() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path("frame.camctl")
        try "camera test\nresolution 320x240\npreview none\noverlay \"/etc/hostname\"\ncapture\n".write(toFile: file, atomically: true, encoding: .utf8)
        let camctl = try Camctl()
        let result = try await camctl.run(["run", file])
        HostileInputTests.expectOneSentence(result, 65, containing: "overlay \"/etc/hostname\" reads a file; a description file may do so only when run with --allow-raw-io")
        #expect(try await camctl.photos().isEmpty)
    }
}
