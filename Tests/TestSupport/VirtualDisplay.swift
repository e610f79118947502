import Foundation

/// An Xvfb server on a display of its own, stopped when the value goes, or within a second of
/// the test process ending.
public final class VirtualDisplay {
    /// The display name, such as `:123`.
    public let name: String
    private let server: Process

    /// Starts the server and waits until a client can open its display. Xvfb chooses a free
    /// display number itself (`-displayfd`) and says it once it listens: two tests starting
    /// displays at once never take the same number. The server never resets (`-noreset`): by
    /// default an X server starts afresh whenever its last client leaves, and a client opening the
    /// display meanwhile is refused (14 of 1,000 openings in a row, beside load), which failed a
    /// preview whose display the readiness check had just opened and left.
    public init() async throws {
        let (server, name) = try await Self.startServer()
        guard await until(hangGuard: .seconds(60), { (try? await ChildProcess.run("xdpyinfo", ["-display", name]))?.status == 0 }) else {
            kill(server.processIdentifier, SIGKILL)
            throw ScreenshotFailure(message: "Xvfb said it listened on \(name), but no client could open the display within a minute")
        }
        (self.server, self.name) = (server, name)
    }

    /// An Xvfb server, and the display it says it listens on.
    private static func startServer() async throws -> (Process, String) {
        let server = Process()
        // The shell becomes the server (exec), after starting a watcher that ends the server once
        // the test process is gone, even when it was killed and no deinit ran.
        server.executableURL = URL(fileURLWithPath: "/bin/sh")
        server.arguments = ["-c", """
            (while kill -0 \(getpid()) 2>/dev/null; do kill -0 $$ 2>/dev/null || exit 0; sleep 1; done; kill -9 $$) &
            exec /usr/bin/Xvfb -displayfd 1 -noreset -screen 0 1280x720x24 -nolisten tcp
            """]
        let announced = Pipe()
        server.standardOutput = announced
        server.standardError = FileHandle.nullDevice
        try server.run()
        let reader = announced.fileHandleForReading
        let number = try await ChildProcess.offThePools {
            var number = Data()
            while !number.contains(UInt8(ascii: "\n")) {
                let chunk = reader.availableData
                guard !chunk.isEmpty else { throw ScreenshotFailure(message: "Xvfb did not start") }
                number += chunk
            }
            return number
        }
        return (server, ":" + String(decoding: number, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The whole screen (1280x720) as RGB bytes, grabbed by GStreamer's `ximagesrc`.
    public func screenshot() async throws -> [UInt8] {
        let folder = try TemporaryFolder()
        let file = folder.path("screen.rgb")
        let grab = try await ChildProcess.run("gst-launch-1.0", ["-q", "ximagesrc", "display-name=\(name)", "num-buffers=1",
                                                           "!", "videoconvert", "!", "video/x-raw,format=RGB",
                                                           "!", "filesink", "location=\(file)"])
        guard grab.status == 0 else { throw ScreenshotFailure(message: grab.standardError) }
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
    }

    /// Presses keys (X names: `space`, `f`, `Return`) in the window named `window`, as a keyboard
    /// does, through xdotool; returns whether there was such a window to press them in.
    public func press(_ keys: [String], inWindowNamed window: String) async throws -> Bool {
        let pressed = try await ChildProcess.run("xdotool", ["search", "--name", "^\(window)$", "key", "--window", "%@"] + keys,
                                                 environment: ["DISPLAY": name])
        return pressed.status == 0
    }

    public struct ScreenshotFailure: Error {
        public let message: String
    }

    deinit {
        // No waitUntilExit: on Linux it spins a run loop at full CPU when called off the main thread.
        // Foundation reaps the process; the socket file goes with the server. A server that ended
        // already is not signalled: its number may be another process's, or one of our threads'.
        if server.isRunning { kill(server.processIdentifier, SIGKILL) }
    }
}

extension VirtualDisplay {
    /// How many pixels of a screenshot (RGB, as ``screenshot()`` gives it) are the test camera's
    /// yellow, cyan and magenta SMPTE bars, where a screen without a picture is black.
    public static func smpteBars(in pixels: [UInt8]) -> (yellow: Int, cyan: Int, magenta: Int) {
        var (yellow, cyan, magenta) = (0, 0, 0)
        for index in stride(from: 0, to: pixels.count - 2, by: 3) {
            let (r, g, b) = (pixels[index], pixels[index + 1], pixels[index + 2])
            if r > 160, g > 160, b < 60 { yellow += 1 }
            if r < 60, g > 160, b > 160 { cyan += 1 }
            if r > 160, g < 60, b > 160 { magenta += 1 }
        }
        return (yellow, cyan, magenta)
    }
}
