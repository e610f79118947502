import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl preview", .startsPrograms)
struct PreviewCommandTests {
    @Test("ximagesink on Xvfb shows the test pattern: a screenshot has its colours, not a black screen")
    func previewOnXvfb() async throws {
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        let preview = try camctl.start(["preview", "--device", "test", "--resolution", "640x480", "--sink", "ximagesink",
                                        "--duration", "600"], environment: ["DISPLAY": display.name])
        // Each SMPTE bar is a seventh of a 640-pixel-wide picture, two thirds of its height: the
        // screen is looked at until the window shows them.
        var seen = (yellow: 0, cyan: 0, magenta: 0)
        let shown = await until {
            seen = VirtualDisplay.smpteBars(in: (try? await display.screenshot()) ?? [])
            return [seen.yellow, seen.cyan, seen.magenta].allSatisfy { $0 > 640 / 7 * 300 }
        }
        #expect(shown, "yellow, cyan and magenta bars on the screen: \(seen)")
        preview.send(SIGUSR2)
        let result = await preview.finished(timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
    }

    @Test("Sinks that cannot show the preview say why and what to use instead; a sink that is no sink is a usage error", arguments: [
        ("xvimagesink", true, 70, "this display has no XVideo support (Xvfb has none); use --sink ximagesink or --sink autovideosink"),
        ("ximagesink", false, 70, "the preview window cannot open: no X display is available (is DISPLAY set?); run camctl in a desktop session, or use --sink fakesink"),
        ("nosuchsink", false, 64, "there is no video sink called \"nosuchsink\"; use autovideosink, ximagesink, xvimagesink, kmssink or fakesink"),
        ("ximagsink", false, 64, "there is no video sink called \"ximagsink\"; did you mean ximagesink? or use autovideosink"),
    ])
    func unusableSinks(sink: String, withDisplay: Bool, status: Int32, message: String) async throws {
        let display = withDisplay ? try await VirtualDisplay() : nil
        let camctl = try Camctl()
        let environment = display.map { ["DISPLAY": $0.name] } ?? ["DISPLAY": ""]
        let result = try await camctl.run(["preview", "--device", "test", "--sink", sink, "--duration", "1"], environment: environment)
        #expect(result.status == status, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("SIGUSR1 takes a photo and SIGUSR2 ends the preview cleanly")
    func signals() async throws {
        let camctl = try Camctl()
        let preview = try camctl.start(["preview", "--device", "test", "--resolution", "320x240", "--sink", "fakesink",
                                        "--duration", "600", "--json"])
        // A SIGUSR1 that comes while camctl starts is a photo once the camera is ready.
        preview.send(SIGUSR1)
        #expect(await preview.output(containing: "\"path\""), "the photo is reported")
        preview.send(SIGUSR2)
        let result = await preview.finished(timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let photos = Camctl.objects(result.standardOutput).filter { $0["path"] != nil }
        #expect(photos.count == 1)
        #expect(try await camctl.photos().count == 1)
    }

    @Test("Ctrl-C (SIGINT) stops a multi-shot capture cleanly with exit code 130, keeping whole photos")
    func interrupt() async throws {
        let camctl = try Camctl()
        let capture = try camctl.start(["capture", "--device", "test", "--resolution", "320x240", "--count", "100",
                                        "--interval", "0.2"])
        #expect(await capture.output(containing: ".jpg"), "the first photo is saved")
        capture.send(SIGINT)
        let result = await capture.finished(timeout: 60)
        #expect(result.status == 130, "\(result.standardError)")
        #expect(result.standardError == "camctl: interrupted; the photos taken so far are saved\n")
        let saved = result.standardOutput.split(separator: "\n")
        #expect(saved.count >= 1 && saved.count < 100)
        #expect(try await camctl.photos().count == saved.count)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: camctl.library.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("A PipeWire camera unplugged during the preview is waited for and resumed",
          .enabled(if: PipeWireCamera.isAvailable, "needs pipewire, wireplumber and gstreamer1.0-pipewire"))
    func hotPlug() async throws {
        let folder = try TemporaryFolder()
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        // The node goes away without a word to pipewiresrc once the preview says it runs (in a
        // terminal, which script(1) gives it: the session notices the silence), and comes back once
        // the preview says it is interrupted; the preview is told to finish (SIGUSR2) once it says
        // it has resumed. Each step is bounded by a hang guard only.
        let script = """
            script -qfec 'echo $$ > "'"$1"'/pid"; exec "\(camctl)" preview --device "pipewire test" --resolution 640x480 --sink fakesink --duration 600 --json \\
                --no-library --output "'"$1"'/unused-%d.jpg"' /dev/null > "$1/out" 2> "$1/err" &
            preview=$!
            until_true() {
                for i in $(seq 2400); do "$@" && return 0; sleep 0.05; done
                echo "hung: $*" >&2; cat "$1/out" "$1/err" >&2; kill -9 $(cat "$1/pid"); exit 1
            }
            until_true grep -q previewing "$1/out"
            touch "$XDG_RUNTIME_DIR/unplug"
            until_true grep -q '"interrupted"' "$1/out"
            touch "$XDG_RUNTIME_DIR/replug"
            until_true grep -q '"resumed"' "$1/out"
            kill -USR2 $(cat "$1/pid"); wait $preview; status=$?
            cat "$1/out"; cat "$1/err" >&2
            exit $status
            """
        let result = try await PipeWireCamera.run("/bin/sh", ["-c", script, "sh", folder.url.path], unplugsWhenAsked: true)
        #expect(result.status == 0, "\(result.standardError)")
        // The terminal's lines, each maybe led by the progress line's clearing.
        let events = result.standardOutput.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            guard let start = line.firstIndex(of: "{") else { return nil }
            return Camctl.objects(String(line[start...])).first?["event"] as? String
        }
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
        #expect(try await camctl.photos().count == 1)
    }

    @Test("A countdown is drawn large on the preview")
    func countdownOnPreview() async throws {
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        let capture = try camctl.start(["capture", "--device", "test:black", "--resolution", "640x480", "--sink", "ximagesink",
                                        "--countdown", "600"], environment: ["DISPLAY": display.name])
        // The screen is looked at while the countdown runs, until the digit shows; then the
        // shutter (SIGUSR1) ends the countdown.
        var white = 0
        let drawn = await until {
            let pixels = (try? await display.screenshot()) ?? []
            white = stride(from: 0, to: max(0, pixels.count - 2), by: 3).reduce(0) { count, index in
                pixels[index] > 200 && pixels[index + 1] > 200 && pixels[index + 2] > 200 ? count + 1 : count
            }
            return white > 2000
        }
        #expect(drawn, "a large white digit on the black picture: \(white) white pixels")
        capture.send(SIGUSR1)
        let result = await capture.finished(timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await camctl.photos().count == 1)
    }

    @Test("--wait-for-device waits for a camera that is not there yet")
    func waitForDevice() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let picture = folder.path("later.png")
        // In a terminal, which shows that it waits; the camera comes once it does.
        let binary = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let capture = try ChildProcess.Running("/usr/bin/script", ["-qfec", "\(binary) capture --device file:\(picture) --resolution 320x240 --wait-for-device",
                                                                   "/dev/null"], environment: ["CAMCTL_LIBRARY": camctl.library.url.path])
        #expect(await capture.output(containing: "to be connected"), "\(capture.outputSoFar)")
        // Made beside it and moved into place: it comes whole, as a camera does.
        try await Camctl.testPicture(folder.path("making.png"), width: 320, height: 240, pattern: "smpte")
        #expect(rename(folder.path("making.png"), picture) == 0)
        let result = await capture.finished(timeout: 30)
        #expect(result.status == 0, "\(result.standardError)")
        let listed = try await camctl("library", "list", "--json")
        #expect(Camctl.objects(listed.standardOutput).count == 1, "\(result.standardOutput) \(result.standardError) listed: \(listed.standardOutput) \(listed.standardError)")
    }
}
