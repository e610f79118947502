import Foundation
import Glibc
import TestSupport
import Testing

@Suite("A kiosk's screen: the preview filling it, keys pressed in its window", .startsPrograms)
struct KioskScreenTests {
    /// The colour of a screen's pixel.
    private static func pixel(_ screen: [UInt8], x: Int, y: Int) -> (red: Int, green: Int, blue: Int) {
        let index = (y * 1280 + x) * 3
        guard index + 2 < screen.count else { return (0, 0, 0) }
        return (Int(screen[index]), Int(screen[index + 1]), Int(screen[index + 2]))
    }

    /// How far an RGB pixel is from grey: the differences between its channels.
    private static func colour(_ pixels: [UInt8], at index: Int) -> Int {
        let (red, green, blue) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
        return abs(red - green) + abs(green - blue)
    }

    /// Whether a 1280x720 screen shows a 16:9 SMPTE test pattern across all of it, mirrored as the
    /// preview shows it: red at the top left corner, magenta at the top right, white in the bottom
    /// row's middle block, and no colour anywhere when `mono`.
    private static func filledWithPattern(_ screen: [UInt8], mono: Bool) -> Bool {
        let (topLeft, topRight, bottom) = (pixel(screen, x: 4, y: 4), pixel(screen, x: 1275, y: 4), pixel(screen, x: 680, y: 715))
        let colourful = stride(from: 0, to: max(0, screen.count - 2), by: 3 * 97).contains { colour(screen, at: $0) > 60 }
        let isWhite = bottom.red > 200 && bottom.green > 200 && bottom.blue > 200
        if mono { return !colourful && isWhite && topLeft.red > 40 && topRight.red > 40 }
        return topLeft.red > 200 && topLeft.green < 60 && topRight.red > 200 && topRight.green < 60 && topRight.blue > 200 && isWhite
    }

    @Test("booth --fullscreen fills the screen with a small camera's picture; f pressed in its window switches the filter, Space takes the shot")
    func boothFillsScreen() async throws {
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        // A 320x180 camera on a 1280x720 screen: filling it means scaling the picture up four times.
        let booth = try camctl.start(["booth", "--device", "test", "--resolution", "320x180", "--shots", "1", "--countdown", "600",
                                      "--show-result", "0", "--fullscreen", "--sink", "ximagesink", "--json"],
                                     environment: ["DISPLAY": display.name])
        var screen: [UInt8] = []
        let filled = await until {
            screen = (try? await display.screenshot()) ?? []
            return Self.filledWithPattern(screen, mono: false)
        }
        #expect(filled, "the pattern across the screen: corners \(Self.pixel(screen, x: 4, y: 4)), \(Self.pixel(screen, x: 1275, y: 4))")
        #expect(try await display.press(["f"], inWindowNamed: "camctl"), "the preview's window is there")
        // What it asks of a window manager: full screen, and a close request that ends nothing.
        let asked = try await ChildProcess.run("xprop", ["-name", "camctl", "_NET_WM_STATE", "WM_PROTOCOLS"], environment: ["DISPLAY": display.name])
        #expect(asked.standardOutput.contains("_NET_WM_STATE_FULLSCREEN") && asked.standardOutput.contains("WM_DELETE_WINDOW"), "\(asked.standardOutput)")
        let mono = await until {
            screen = (try? await display.screenshot()) ?? []
            return Self.filledWithPattern(screen, mono: true)
        }
        #expect(mono, "the screen turns grey once f is pressed")
        #expect(try await display.press(["space"], inWindowNamed: "camctl"))
        let result = await booth.finished(timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        let photos = try await camctl.photos().filter { ($0["path"] as? String)?.hasSuffix(".jpg") == true }
        #expect(photos.count == 2, "the shot and the composed picture: \(photos)")
        let shot = try #require(photos.first?["path"] as? String)
        let pixels = try await BoothCommandTests.frames(ofPicture: shot, width: 64, height: 36)
        let colour = stride(from: 0, to: pixels.count - 2, by: 3).map { Self.colour(pixels, at: $0) }.max() ?? 0
        #expect(colour < 24, "the shot is mono, taken after the key in the window changed the filter: colour \(colour)")
    }

    @Test("Keys pressed in preview's own window act as in a terminal: Space takes a photo, q quits")
    func keysInWindow() async throws {
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        let preview = try camctl.start(["preview", "--device", "test", "--resolution", "320x240", "--sink", "ximagesink", "--duration", "600",
                                        "--json"], environment: ["DISPLAY": display.name])
        // The window shows once the first frame is drawn; Space is pressed until it is there.
        let pressed = await until { (try? await display.press(["space"], inWindowNamed: "camctl")) == true }
        #expect(pressed, "the preview's window is there")
        #expect(await preview.output(containing: #""path""#), "the photo is reported: \(preview.outputSoFar)")
        #expect(try await display.press(["q"], inWindowNamed: "camctl"))
        let result = await preview.finished(timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await camctl.photos().count == 1)
    }

    @Test("--fullscreen with a sink that shows no window is refused before the camera starts, saying which sinks can")
    func noWindowToFill() async throws {
        let camctl = try Camctl()
        let result = try await camctl.run(["preview", "--device", "test", "--fullscreen", "--sink", "fakesink", "--duration", "1"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError == "camctl: fakesink shows no window, so the preview cannot fill the screen; "
            + "use ximagesink, xvimagesink, waylandsink, kmssink or autovideosink\n", "\(result.standardError)")
        // A description file's preview SINK fullscreen is checked alike, before the camera starts.
        let folder = try TemporaryFolder()
        let file = folder.path("kiosk.camctl")
        try "camera test\npreview fakesink fullscreen\ncapture\n".write(toFile: file, atomically: true, encoding: .utf8)
        let ran = try await camctl.run(["run", file])
        #expect(ran.status == 65 && ran.standardError.contains("kiosk.camctl: preview: fakesink shows no window"), "\(ran.standardError)")
        #expect(try await camctl.photos().isEmpty)
    }

    @Test("--fullscreen where no X display can be opened says so in one sentence")
    func noDisplayToFill() async throws {
        let camctl = try Camctl()
        let result = try await camctl.run(["preview", "--device", "test", "--fullscreen", "--sink", "ximagesink display=:9999", "--duration", "1"])
        #expect(result.status == 70, "\(result.standardError)")
        #expect(result.standardError.contains("the preview cannot fill the screen: X display :9999 cannot be opened"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }

    @Test("--fullscreen on an X server that never answers ends in one sentence once its deadline passes, not never")
    func silentDisplay() async throws {
        // An X server's socket that takes connections and never says a word.
        let number = 200 + Int(getpid() % 500)
        try FileManager.default.createDirectory(atPath: "/tmp/.X11-unix", withIntermediateDirectories: true)
        let socket = "/tmp/.X11-unix/X\(number)"
        let silent = try ChildProcess.Running("/usr/bin/python3", ["-u", "-c", """
            import os, socket, sys
            path = sys.argv[1]
            if os.path.exists(path): os.unlink(path)
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(path)
            s.listen(8)
            print("listening")
            held = []
            while True:
                held.append(s.accept()[0])
            """, socket])
        defer {
            silent.send(SIGKILL)
            try? FileManager.default.removeItem(atPath: socket)
        }
        #expect(await silent.output(containing: "listening"))
        let result = try await Camctl().run(["preview", "--device", "test", "--fullscreen", "--sink", "ximagesink display=:\(number)", "--duration", "2"])
        #expect(result.status == 70, "\(result.standardError)")
        #expect(result.standardError.contains("X display :\(number) did not answer within 10 seconds"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }
}
