import CameraKit
import HTTPServer
import Synchronization

/// `GET /stream.mjpg`: the live JPEG frames as `multipart/x-mixed-replace`, which browsers show in
/// an `<img>`. Every viewer gets the same encoded frames; a viewer that reads slowly skips frames
/// (it keeps one waiting), and never slows the camera or the other viewers.
enum LiveStream {
    static let boundary = "camctlframe"

    /// A viewer's response, fed until the viewer goes or the server stops.
    static func response(from output: LiveJPEGOutput) -> HTTPResponse {
        let stream = HTTPStream(keeping: 1)
        let viewer = Viewer()
        let registration = output.addReceiver { frame in
            // Made once a frame for every viewer, and shared: no viewer copies the picture.
            if !stream.send(frame.shared("multipart part") { part(frame) }) { viewer.leave() }
        }
        viewer.registration.withLock { $0 = registration }
        return HTTPResponse(status: 200, headers: [("Content-Type", "multipart/x-mixed-replace; boundary=\(boundary)"),
                                                   ("Cache-Control", "no-store")], body: .stream(stream))
    }

    /// One frame as a part of the multipart body, with when the camera took it
    /// (`X-Captured-Monotonic`: nanoseconds of this machine's monotonic clock).
    static func part(_ frame: LiveJPEGOutput.Frame) -> [UInt8] {
        let captured = frame.capturedAt.map { "X-Captured-Monotonic: \($0)\r\n" } ?? ""
        return Array("--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(frame.jpeg.count)\r\n\(captured)\r\n".utf8)
            + frame.jpeg + Array("\r\n".utf8)
    }

    /// Keeps a viewer's registration for as long as its stream takes frames.
    private final class Viewer: Sendable {
        let registration = Mutex<LiveReceiver?>(nil)

        /// The viewer has gone: no more frames for it.
        func leave() {
            registration.withLock { registration in
                registration?.cancel()
                registration = nil
            }
        }
    }
}
