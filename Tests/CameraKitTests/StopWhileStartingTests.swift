@testable import CameraKit
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("A stop while the camera starts", .hangGuard(minutes: 3))
struct StopWhileStartingTests {
    /// `port` on 127.0.0.1 as a socket address.
    static func loopback(_ port: UInt16) -> sockaddr_in {
        sockaddr_in(sin_family: sa_family_t(AF_INET), sin_port: port.bigEndian, sin_addr: in_addr(s_addr: inet_addr("127.0.0.1")), sin_zero: (0, 0, 0, 0, 0, 0, 0, 0))
    }

    /// A UDP port free now, on loopback.
    static func freeUDPPort() throws -> UInt16 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(socket) }
        var address = loopback(0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw ChildProcess.Failure(message: "no UDP port: \(String(cString: strerror(errno)))") }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Whether something holds `port` on loopback (a bind of it is refused as in use).
    static func isHeld(_ port: UInt16) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(socket) }
        var address = loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        return !bound && errno == EADDRINUSE
    }

    @Test("A stop while the camera starts wins: the start ends saying so, the session is stopped, not failed, and nothing runs after it")
    func stopDuringStart() async throws {
        // A camera that starts once its first frame comes: a UDP source no frame is ever sent to,
        // holding its port (which tells that the start is under way) until it is stopped.
        let port = try Self.freeUDPPort()
        let device = CaptureDevice.custom("udpsrc port=\(port) reuse=false caps=video/x-raw,format=I420,width=64,height=48,framerate=10/1")
        let session = CaptureSession(configuration: try CaptureSessionTests.configuration("64x48@10", device: device))
        let events = session.events()
        let starting = Task { () -> CaptureError? in
            do throws(CaptureError) {
                try await session.start()
                return nil
            } catch {
                return error
            }
        }
        #expect(await until { Self.isHeld(port) }, "the camera's source opened")
        await session.stop()
        #expect(await starting.value == .stoppedWhileStarting)
        #expect(await session.status == .stopped)
        #expect(await until { !Self.isHeld(port) }, "the camera's source let its port go")
        // What the session told: it started and stopped; it neither failed nor ran.
        var seen: [String] = []
        for await event in events {
            switch event {
            case .started: seen.append("started")
            case .stopped: seen.append("stopped")
            case .running: seen.append("running")
            case .failed: seen.append("failed")
            default: continue
            }
            if seen.last == "stopped" { break }
        }
        #expect(seen == ["started", "stopped"])
    }
}
