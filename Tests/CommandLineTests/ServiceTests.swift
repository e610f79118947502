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

    @Test("A camera whose daemon freezes while it stops: serve asks systemd's watchdog for a restart, saying why, after pinging it while the camera worked",
          .enabled(if: PipeWireCamera.isAvailable, "needs PipeWire"))
    func watchdogOnHang() async throws {
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        // The manager listens in the daemon's runtime folder; serve reads one of the daemon's own
        // cameras, then the daemon is frozen: no frame comes, and stopping the camera waits on it.
        let script = """
            python3 -u -c '
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            s.bind(sys.argv[1])
            open(sys.argv[1] + ".bound", "w").close()
            while True:
                print(s.recv(4096).decode().replace("\\n", " | "))
            ' "$XDG_RUNTIME_DIR/notify" > "$XDG_RUNTIME_DIR/notify.out" & manager=$!
            for i in $(seq 600); do [ -e "$XDG_RUNTIME_DIR/notify.bound" ] && break; sleep 0.1; done
            NOTIFY_SOCKET="$XDG_RUNTIME_DIR/notify" WATCHDOG_USEC=1000000 "$0" serve --device "\(PipeWireCamera.daemonCameraNames[0])" \\
                --resolution 320x240 --listen 127.0.0.1:0 --json > "$XDG_RUNTIME_DIR/serve.out" 2>"$XDG_RUNTIME_DIR/serve.err" & serve=$!
            for i in $(seq 600); do grep -q 'WATCHDOG=1' "$XDG_RUNTIME_DIR/notify.out" && break; sleep 0.1; done
            port=$(sed -n 's/.*"port":\\([0-9]*\\).*/\\1/p' "$XDG_RUNTIME_DIR/serve.out" | head -1)
            for i in $(seq 600); do
                frames=$(curl -s "http://127.0.0.1:$port/api/status" | sed -n 's/.*"camera_frames":\\([0-9]*\\).*/\\1/p')
                [ "${frames:-0}" -gt 0 ] && break; sleep 0.1
            done
            echo "frames before the freeze: $frames"
            cp "$XDG_RUNTIME_DIR/notify.out" "$XDG_RUNTIME_DIR/before"
            kill -STOP $PIPEWIRE_DAEMON_PID
            for i in $(seq 1800); do grep -q 'WATCHDOG=trigger' "$XDG_RUNTIME_DIR/notify.out" && break; sleep 0.1; done
            kill -CONT $PIPEWIRE_DAEMON_PID
            kill -KILL $serve $manager; wait
            echo "--- before"; cat "$XDG_RUNTIME_DIR/before"
            echo "--- after"; tail -n +$(($(wc -l < "$XDG_RUNTIME_DIR/before") + 1)) "$XDG_RUNTIME_DIR/notify.out"
            echo "--- serve"; cat "$XDG_RUNTIME_DIR/serve.err"
            """
        let result = try await PipeWireCamera.run("/bin/sh", ["-c", script, camctl], daemonCameras: true)
        let output = result.standardOutput
        let before = output.components(separatedBy: "--- before").last?.components(separatedBy: "--- after").first ?? ""
        let after = output.components(separatedBy: "--- after").last?.components(separatedBy: "--- serve").first ?? ""
        #expect(!output.contains("frames before the freeze: 0") && before.contains("WATCHDOG=1") && !before.contains("WATCHDOG=trigger"),
                "\(output)")
        #expect(after.contains("STATUS=a GStreamer pipeline (the camera's, most often) has not stopped or started for")
                && after.contains("WATCHDOG=trigger"), "\(output)")
    }
}
