import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl serve as a systemd service", .startsPrograms)
struct ServiceTests {
    /// The repository's unit file.
    static let unit = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../systemd/camctl-serve.service")

    @Test("systemd-analyze accepts the unit, run as it would be once camctl is installed",
          .enabled(if: ChildProcess.isInstalled("systemd-analyze"), "needs systemd-analyze"))
    func unitVerifies() async throws {
        let folder = try TemporaryFolder()
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        #expect(text.contains("Type=notify") && text.contains("WatchdogSec="))
        // Its ExecStart names the installed camctl; here, the one just built.
        let unit = try folder.file("camctl-serve.service",
                                   holding: text.replacingOccurrences(of: "/usr/local/bin/camctl", with: ChildProcess.buildFolder.appendingPathComponent("camctl").path))
        let verified = try await ChildProcess.run("systemd-analyze", ["verify", unit])
        #expect(verified.status == 0 && verified.standardError.isEmpty, "\(verified.standardError)")
    }

    /// systemd's side of the notify protocol at `socket`: a datagram socket that prints each
    /// message it gets, a line each; returned once it is bound.
    static func manager(listeningAt socket: String) async throws -> ChildProcess.Running {
        let systemd = try ChildProcess.Running("/usr/bin/python3", ["-u", "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            s.bind(sys.argv[1])
            print("bound")
            while True:
                print(s.recv(4096).decode().replace("\\n", " | "))
            """, socket])
        guard await systemd.output(containing: "bound") else {
            systemd.send(SIGKILL)
            throw ChildProcess.Failure(message: "the notify socket was never bound: \(systemd.errorsSoFar)")
        }
        return systemd
    }

    @Test("Under systemd's notify socket, serve says READY with its address, pings the watchdog, and says STOPPING on SIGTERM")
    func notifies() async throws {
        let folder = try TemporaryFolder()
        let socket = folder.path("notify")
        let systemd = try await Self.manager(listeningAt: socket)
        defer { systemd.send(SIGKILL) }
        let camctl = try Camctl()
        let serve = try camctl.start(["serve", "--device", "test", "--resolution", "320x240", "--listen", "127.0.0.1:0"],
                                     environment: ["NOTIFY_SOCKET": socket, "WATCHDOG_USEC": "400000"])
        #expect(await systemd.output(containing: "READY=1 | STATUS=serving Test camera (smpte) at http://127.0.0.1:"), "\(systemd.outputSoFar)")
        #expect(await until { systemd.outputSoFar.components(separatedBy: "WATCHDOG=1").count > 3 }, "pings: \(systemd.outputSoFar)")
        #expect(await serve.handling(SIGTERM))
        serve.send(SIGTERM)
        let ended = await serve.finished()
        #expect(ended.status == 0, "\(ended.standardError)")
        #expect(await systemd.output(containing: "STOPPING=1"), "\(systemd.outputSoFar)")
    }

    @Test("A manager whose socket is full never holds serve: it serves, and SIGTERM ends it with 0")
    func managerNotReading() async throws {
        let folder = try TemporaryFolder()
        let socket = folder.path("notify")
        // systemd's side, stuck: its socket's queue filled before camctl starts, and never read.
        let systemd = try ChildProcess.Running("/usr/bin/python3", ["-u", "-c", """
            import socket, sys, time
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            s.bind(sys.argv[1])
            filler = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            filler.setblocking(False)
            try:
                while True:
                    filler.sendto(b"FILLER=1", sys.argv[1])
            except BlockingIOError:
                print("full")
            time.sleep(3600)
            """, socket])
        defer { systemd.send(SIGKILL) }
        #expect(await systemd.output(containing: "full"))
        let served = try await ServedCamera(extra: [], environment: ["NOTIFY_SOCKET": socket, "WATCHDOG_USEC": "1000000"])
        #expect(try await served.json("/api/status").status == 200, "it serves while the manager reads nothing")
        #expect(await served.process.handling(SIGTERM))
        let ended = await served.stop()
        #expect(ended.status == 0, "\(ended.standardError)")
    }

    @Test("A watchdog of a microsecond is followed at the shortest interval camctl keeps, not in a loop")
    func watchdogFloored() async throws {
        let folder = try TemporaryFolder()
        let socket = folder.path("notify")
        let systemd = try await Self.manager(listeningAt: socket)
        defer { systemd.send(SIGKILL) }
        let served = try await ServedCamera(extra: [], environment: ["NOTIFY_SOCKET": socket, "WATCHDOG_USEC": "1"])
        defer { served.process.send(SIGTERM) }
        // 60 of the camera's frames (two seconds at its 30 a second): a ping each half second, a
        // few more on a slow machine; a loop would have sent tens of thousands.
        #expect(await served.cameraFrames(60))
        let pings = systemd.outputSoFar.components(separatedBy: "WATCHDOG=1").count - 1
        #expect((1...60).contains(pings), "\(pings) pings")
    }
}
