import CameraKit
import GStreamer
import Synchronization

/// `camctl serve --rtsp`: the live picture as H.264 over RTSP at `/preview`. The session encodes
/// each frame once (``LiveH264Output``), only while a client watches; the RTSP server shares one
/// media among all clients, which only packetizes what the session encoded.
final class RTSPPreview: Sendable {
    /// The path of the stream.
    static let path = "/preview"

    private let server: RTSPServer
    /// The port it listens on.
    var port: Int { server.port }

    /// The sources of the media now made (one while anyone watches), and the session's frames,
    /// taken while there is a source.
    private final class Feeds: Sendable {
        let state = Mutex<(sources: [AppSource], receiver: LiveReceiver?)>(([], nil))
    }

    /// The user name a client gives with the access token as its password.
    static let user = "camctl"

    /// Listens on `host`:`port` and serves the frames of `output`; with `access`'s token, only to
    /// clients that give it (user `camctl`, the token as password).
    ///
    /// - Throws: ``GStreamerError`` when it cannot listen there.
    init(output: LiveH264Output, host: String, port: Int, access: AccessControl) throws(GStreamerError) {
        server = try RTSPServer(host: host, port: port, credentials: access.isOnLoopback ? nil : (Self.user, access.token))
        let feeds = Feeds()
        let launch = "( appsrc name=frames is-live=true format=time do-timestamp=true max-buffers=8 leaky-type=downstream "
            + "caps=\"\(LiveH264Output.caps)\" ! h264parse ! rtph264pay name=pay0 pt=96 config-interval=1 )"
        server.mount(Self.path, launch: launch) { bin in
            guard let source = bin.element(named: "frames") as? AppSource else { return {} }
            let receiver = output.addReceiver { buffer in
                for source in feeds.state.withLock({ $0.sources }) { try? source.pushRedated(buffer) }
            }
            let superseded = feeds.state.withLock { feeds in
                feeds.sources.append(source)
                defer { feeds.receiver = receiver }
                return feeds.receiver
            }
            superseded?.cancel()
            return {
                let ended = feeds.state.withLock { feeds in
                    feeds.sources.removeAll { $0 === source }
                    defer { if feeds.sources.isEmpty { feeds.receiver = nil } }
                    return feeds.sources.isEmpty ? feeds.receiver : nil
                }
                ended?.cancel()  // no one watches: the session stops encoding
            }
        }
    }

    /// Disconnects every client and stops listening.
    func stop() {
        server.stop()
    }
}
