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

    @Test("Under systemd's notify socket, serve says READY with its address, pings the watchdog, and says STOPPING on SIGTERM")
    func notifies() async throws {
        let folder = try TemporaryFolder()
        let socket = folder.path("notify")
        // systemd's side: a datagram socket that prints each message it gets, a line each.
        let systemd = try ChildProcess.Running("/usr/bin/python3", ["-u", "-c", """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            s.bind(sys.argv[1])
            print("bound")
            while True:
                print(s.recv(4096).decode().replace("\\n", " | "))
            """, socket])
        defer { systemd.send(SIGKILL) }
        #expect(await systemd.output(containing: "bound"))
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
}
