import Foundation

/// An Xvfb server on a display of its own, stopped when the value goes.
public final class VirtualDisplay {
    /// The display name, such as `:123`.
    public let name: String
    private let server: Process

    /// Starts the server and waits until it listens.
    public init() throws {
        var number = Int.random(in: 100...999)
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { number += 1 }
        name = ":\(number)"
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        server.arguments = [name, "-screen", "0", "1280x720x24", "-nolisten", "tcp"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        for _ in 0..<100 where !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
            usleep(20_000)
        }
    }

    deinit {
        // No waitUntilExit: on Linux it spins a run loop at full CPU when called off the main thread.
        // Foundation reaps the process; the socket file goes with the server.
        kill(server.processIdentifier, SIGKILL)
    }
}
