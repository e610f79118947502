import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl preview", .timeLimit(.minutes(5)), .aside)
struct PreviewCommandTests {
    @Test("ximagesink on Xvfb shows the test pattern: a screenshot has its colours, not a black screen")
    func previewOnXvfb() throws {
        let display = try VirtualDisplay()
        let camctl = try Camctl()
        let preview = try camctl.start(["preview", "--device", "test", "--resolution", "640x480", "--sink", "ximagesink",
                                        "--duration", "4"], environment: ["DISPLAY": display.name])
        Thread.sleep(forTimeInterval: 2)
        let pixels = try display.screenshot()
        let result = preview.finish()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(pixels.count == 1280 * 720 * 3)
        var yellow = 0, cyan = 0, magenta = 0
        for index in stride(from: 0, to: pixels.count - 2, by: 3) {
            let (r, g, b) = (pixels[index], pixels[index + 1], pixels[index + 2])
            if r > 160, g > 160, b < 60 { yellow += 1 }
            if r < 60, g > 160, b > 160 { cyan += 1 }
            if r > 160, g < 60, b > 160 { magenta += 1 }
        }
        // Each SMPTE bar is a seventh of a 640-pixel-wide picture, two thirds of its height.
        for (colour, count) in [("yellow", yellow), ("cyan", cyan), ("magenta", magenta)] {
            #expect(count > 640 / 7 * 300, "\(colour): \(count) pixels")
        }
    }

    @Test("Sinks that cannot show the preview say why and what to use instead; a sink that is no sink is a usage error", arguments: [
        ("xvimagesink", true, 70, "this display has no XVideo support (Xvfb has none); use --sink ximagesink or --sink autovideosink"),
        ("ximagesink", false, 70, "the preview window cannot open: no X display is available (is DISPLAY set?); run camctl in a desktop session, or use --sink fakesink"),
        ("nosuchsink", false, 64, "there is no video sink called \"nosuchsink\"; use autovideosink, ximagesink, xvimagesink, kmssink or fakesink"),
        ("ximagsink", false, 64, "there is no video sink called \"ximagsink\"; did you mean ximagesink? or use autovideosink"),
    ])
    func unusableSinks(sink: String, withDisplay: Bool, status: Int32, message: String) throws {
        let display = withDisplay ? try VirtualDisplay() : nil
        let camctl = try Camctl()
        let environment = display.map { ["DISPLAY": $0.name] } ?? ["DISPLAY": ""]
        let result = try camctl.run(["preview", "--device", "test", "--sink", sink, "--duration", "1"], environment: environment)
        #expect(result.status == status, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("SIGUSR1 takes a photo and SIGUSR2 ends the preview cleanly")
    func signals() throws {
        let camctl = try Camctl()
        let preview = try camctl.start(["preview", "--device", "test", "--resolution", "320x240", "--sink", "fakesink",
                                        "--duration", "30", "--json"])
        Thread.sleep(forTimeInterval: 1.5)
        preview.send(SIGUSR1)
        Thread.sleep(forTimeInterval: 1)
        preview.send(SIGUSR2)
        let result = preview.finish(timeout: 20)
        #expect(result.status == 0, "\(result.standardError)")
        let photos = Camctl.objects(result.standardOutput).filter { $0["path"] != nil }
        #expect(photos.count == 1)
        #expect(try camctl.photos().count == 1)
    }

    @Test("Ctrl-C (SIGINT) stops a multi-shot capture cleanly with exit code 130, keeping whole photos")
    func interrupt() throws {
        let camctl = try Camctl()
        let capture = try camctl.start(["capture", "--device", "test", "--resolution", "320x240", "--count", "100",
                                        "--interval", "0.2"])
        Thread.sleep(forTimeInterval: 1.5)
        capture.send(SIGINT)
        let result = capture.finish(timeout: 20)
        #expect(result.status == 130, "\(result.standardError)")
        #expect(result.standardError == "camctl: interrupted; the photos taken so far are saved\n")
        let saved = result.standardOutput.split(separator: "\n")
        #expect(saved.count >= 1 && saved.count < 100)
        #expect(try camctl.photos().count == saved.count)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: camctl.library.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("A PipeWire camera unplugged during the preview is waited for and resumed",
          .enabled(if: PipeWireCamera.isAvailable, "needs pipewire, wireplumber and gstreamer1.0-pipewire"))
    func hotPlug() throws {
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        // The node goes away without a word to pipewiresrc: the session notices the silence.
        let result = try PipeWireCamera.run(camctl, ["preview", "--device", "pipewire test", "--resolution", "640x480",
                                                     "--sink", "fakesink", "--duration", "10", "--json", "--no-library",
                                                     "--output", "/tmp/unused-%d.jpg"],
                                            unplugAfter: 1.5, replugAfter: 1.5)
        #expect(result.status == 0, "\(result.standardError)")
        let events = Camctl.objects(result.standardOutput).compactMap { $0["event"] as? String }
        #expect(events.contains("interrupted"), "\(events)")
        #expect(events.firstIndex(of: "resumed") ?? -1 > events.firstIndex(of: "interrupted") ?? Int.max, "\(events)")
    }

    @Test("Keys typed in a terminal act: space takes a photo, p pauses, q quits",
          .enabled(if: ChildProcess.isInstalled("script"), "needs script(1) for a terminal"))
    func keysInTerminal() async throws {
        let camctl = try Camctl()
        // Each key once the one before has done its part.
        let result = try await camctl.inTerminal(["preview", "--device", "test", "--resolution", "320x240", "--sink", "fakesink", "--duration", "600"],
                                                 keys: [("previewing", 0, " "), (".jpg", 0, "p"), ("preview paused", 0, "p"), ("preview resumed", 0, "q")])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardOutput.contains("preview paused") && result.standardOutput.contains("preview resumed"),
                "\(result.standardOutput)")
        #expect(try await camctl.photosAwaited().count == 1)
    }

    @Test("A countdown is drawn large on the preview")
    func countdownOnPreview() throws {
        let display = try VirtualDisplay()
        let camctl = try Camctl()
        let capture = try camctl.start(["capture", "--device", "test:black", "--resolution", "640x480", "--sink", "ximagesink",
                                        "--countdown", "8"], environment: ["DISPLAY": display.name])
        // The window shows once camctl has started, which takes seconds on a loaded machine: the
        // screen is looked at every half second while the countdown runs.
        var white = 0
        for _ in 0..<14 where white <= 2000 {
            Thread.sleep(forTimeInterval: 0.5)
            let pixels = try display.screenshot()
            white = 0
            for index in stride(from: 0, to: pixels.count - 2, by: 3) where pixels[index] > 200 && pixels[index + 1] > 200 && pixels[index + 2] > 200 {
                white += 1
            }
        }
        let result = capture.finish()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(white > 2000, "a large white digit on the black picture: \(white) white pixels")
        #expect(try camctl.photos().count == 1)
    }

    @Test("--wait-for-device waits for a camera that is not there yet")
    func waitForDevice() throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let picture = folder.path("later.png")
        let capture = try camctl.start(["capture", "--device", "file:\(picture)", "--resolution", "320x240", "--wait-for-device"])
        Thread.sleep(forTimeInterval: 1.5)
        // Made beside it and moved into place: it comes whole, as a camera does.
        try Camctl.testPicture(folder.path("making.png"), width: 320, height: 240, pattern: "smpte")
        #expect(rename(folder.path("making.png"), picture) == 0)
        let result = capture.finish(timeout: 30)
        #expect(result.status == 0, "\(result.standardError)")
        let listed = try camctl("library", "list", "--json")
        #expect(Camctl.objects(listed.standardOutput).count == 1, "\(result.standardOutput) \(result.standardError) listed: \(listed.standardOutput) \(listed.standardError)")
    }
}
