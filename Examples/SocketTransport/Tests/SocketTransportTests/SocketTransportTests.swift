import CamctlTesting
import CameraKit
import CameraOperator
import Dispatch
import Foundation
import PhotoLibrary
import SocketTransport
import Testing

/// The socket transport against camctl's camera in memory (`CamctlTesting`'s `FakeCamera`): a
/// client's lines in, the operator's answers and events out.
@Suite("JSON lines over a Unix socket")
struct SocketTransportTests {
    /// A client of the socket at `path`: lines written, lines read until one holds `text`,
    /// blocking on a queue of the test's own, never on Swift's shared threads.
    final class Client: Sendable {
        private let descriptor: Int32
        private let queue = DispatchQueue(label: "socket-transport.test-client")

        init(path: String) throws {
            descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
            var limit = timeval(tv_sec: 60, tv_usec: 0)  // only a hang is caught
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        func write(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }

        /// The lines read until one contains `text` (with it), or all read before the socket ended.
        func lines(until text: String) async -> [String] {
            await withCheckedContinuation { continuation in
                queue.async { [descriptor] in
                    var lines: [String] = [], pending: [UInt8] = []
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    while true {
                        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                        guard count > 0 else { break }
                        pending += chunk[..<count]
                        while let end = pending.firstIndex(of: 0x0A) {
                            lines.append(String(decoding: pending[..<end], as: UTF8.self))
                            pending.removeSubrange(...end)
                        }
                        if lines.contains(where: { $0.contains(text) }) { break }
                    }
                    continuation.resume(returning: lines)
                }
            }
        }
    }

    @Test("A composition of nothing is refused with 409 in the operator's words; a capture is answered by its outcome; a line that is no JSON is the error record")
    func linesInAndOut() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("socket-transport-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = try PhotoLibrary(folder: folder)
        let operating = SessionOperator(camera: FakeCamera(), delivery: try PhotoDelivery(library: library, pictureCount: nil),
                                        device: .testCamera(), clock: ManualClock())
        let transport = try SocketTransport(path: folder + "/camera.sock", sessionOperator: operating)
        defer { transport.stop() }
        let client = try Client(path: transport.path)

        client.write(#"{"action": "compose"}"#)
        let composed = await client.lines(until: #""event":"error""#)
        #expect(composed.last?.contains(#""status":409"#) == true && composed.last?.contains("there are no photos to compose; take some first") == true,
                "\(composed)")
        client.write(#"{"action": "capture"}"#)
        let captured = await client.lines(until: #""outcome":"photos""#)
        #expect(captured.contains { $0.contains(#""outcome":"photos""#) && $0.contains(#""version":1"#) }, "\(captured)")
        client.write("not json")
        let refused = await client.lines(until: #""event":"error""#)
        #expect(refused.last == #"{"error":"a request is one JSON object on one line","event":"error","id":null,"status":400,"version":1}"#, "\(refused)")
        #expect(try PhotoLibrary(folder: folder, forReading: true).photos().count == 1)
    }
}
