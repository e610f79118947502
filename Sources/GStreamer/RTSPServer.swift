import Blocking
internal import CGStreamer
import Dispatch
import Synchronization

/// An RTSP server (gst-rtsp-server) on a GLib main loop of its own: paths mounted to media made
/// from launch descriptions, each shared by all the clients of its path, so it is made and
/// encoded once however many watch.
///
/// ```swift
/// let server = try RTSPServer(host: "0.0.0.0", port: 8554)
/// server.mount("/preview", launch: "( videotestsrc is-live=true ! x264enc ! rtph264pay name=pay0 )") { _ in {} }
/// // rtsp://HOST:8554/preview … until:
/// server.stop()
/// ```
public final class RTSPServer: @unchecked Sendable {
    // @unchecked Sendable: the server, its mount points and its sessions lock themselves; the
    // loop runs on the server's own thread, and `stop` is guarded by `stopped`.
    private let server: UnsafeMutablePointer<GstRTSPServer>
    private let rtsp: cgst_rtsp_api
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let loopEnded = DispatchSemaphore(value: 0)
    /// Every media made and not yet ended: `stop` waits for them, so none outlives the server.
    private let liveMedia = DispatchGroup()
    private let stopped = Atomic<Bool>(false)
    /// Whether any server was made in this process (gst-rtsp-server loaded, its threads started).
    private static let anyMade = Atomic<Bool>(false)
    /// The port it listens on (the one chosen when 0 was asked for).
    public let port: Int

    /// The role clients with the credentials have.
    private static let viewerRole = "viewer"
    private let needsCredentials: Bool

    /// Listens on `host`:`port` (0: any free port); with `credentials`, only clients giving them
    /// (HTTP basic authentication) may watch.
    ///
    /// - Throws: ``GStreamerError`` (`.resource`) when it cannot listen there, (`.missingElement`)
    ///   when gst-rtsp-server is not installed.
    public init(host: String, port: Int, credentials: (user: String, password: String)? = nil) throws(GStreamerError) {
        try requireGStreamer()
        guard let rtsp = RTSPLibrary.loaded?.api else {
            throw GStreamerError(.missingElement, "gst-rtsp-server is not installed; install the libgstrtspserver-1.0-0 package")
        }
        self.rtsp = rtsp
        Self.anyMade.store(true, ordering: .releasing)
        server = rtsp.server_new()!
        rtsp.server_set_address(server, host)
        rtsp.server_set_service(server, "\(port)")
        needsCredentials = credentials != nil
        if let credentials {
            let auth = rtsp.auth_new()
            let token = cgst_rtsp_token_for_role(rtsp.token_new, Self.viewerRole)
            let basic = rtsp.auth_make_basic(credentials.user, credentials.password)
            rtsp.auth_add_basic(auth, basic, token)
            g_free(basic)
            gst_mini_object_unref(upcast(token!, to: GstMiniObject.self))
            rtsp.server_set_auth(server, auth)
            g_object_unref(auth)
        }
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        var error: UnsafeMutablePointer<GError>?
        guard let source = rtsp.server_create_source(server, nil, &error) else {
            let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
            g_clear_error(&error)
            g_main_loop_unref(loop)
            g_main_context_unref(context)
            g_object_unref(server)
            throw GStreamerError(.resource, "the RTSP server cannot listen on \(host):\(port) (\(reason))")
        }
        g_source_attach(source, context)
        g_source_unref(source)
        // Sessions whose clients went away without a TEARDOWN are ended when they time out.
        let pool = rtsp.server_get_session_pool(server)
        if let pool, let watch = rtsp.session_pool_create_watch(pool) {
            g_source_attach(watch, context)
            g_source_unref(watch)
        }
        if let pool { g_object_unref(pool) }
        self.port = Int(rtsp.server_get_bound_port(server))
        let (loop, ended) = (MainLoop(raw: self.loop), loopEnded)
        DispatchQueue(label: "camctl.rtsp-server").async {
            g_main_context_push_thread_default(g_main_loop_get_context(loop.raw))
            g_main_loop_run(loop.raw)
            ended.signal()
        }
    }

    /// Serves at `path` one media made from `launch` (a bin in parentheses whose payloaders are
    /// named `pay0`, `pay1`…), shared by every client. `configure` is called with each media's bin
    /// as it is made (on the server's thread), before it plays; what it returns is called when the
    /// media ends (its last client gone).
    public func mount(_ path: String, launch: String, configure: @escaping @Sendable (Bin) -> (@Sendable () -> Void)) {
        let liveMedia = liveMedia
        let counted: @Sendable (Bin) -> (@Sendable () -> Void) = { bin in
            liveMedia.enter()
            let ended = configure(bin)
            return {
                ended()
                liveMedia.leave()
            }
        }
        let factory = rtsp.media_factory_new()
        rtsp.media_factory_set_launch(factory, launch)
        rtsp.media_factory_set_shared(factory, 1)
        if needsCredentials { cgst_rtsp_factory_allow(rtsp.media_factory_add_role, factory, Self.viewerRole) }
        typealias MediaConfigure = @convention(c) (UnsafeMutablePointer<GstRTSPMediaFactory>?, UnsafeMutablePointer<GstRTSPMedia>?, gpointer?) -> Void
        let configured: MediaConfigure = { _, media, userData in
            guard let media, let userData, let element = RTSPLibrary.loaded?.api.media_get_element(media),
                  let bin = Element.wrapping(adopting: element) as? Bin else { return }
            let ended = CallbackBox<@Sendable (Bin) -> (@Sendable () -> Void)>.value(userData)(bin)
            typealias Unprepared = @convention(c) (UnsafeMutablePointer<GstRTSPMedia>?, gpointer?) -> Void
            let unprepared: Unprepared = { _, userData in
                guard let userData else { return }
                CallbackBox<@Sendable () -> Void>.value(userData)()
            }
            g_signal_connect_data(upcast(media, to: GObject.self), "unprepared", unsafeBitCast(unprepared, to: GCallback.self),
                                  CallbackBox<@Sendable () -> Void>.retained(ended), releaseBoxOfClosure, GConnectFlags(rawValue: 0))
        }
        g_signal_connect_data(upcast(factory!, to: GObject.self), "media-configure", unsafeBitCast(configured, to: GCallback.self),
                              CallbackBox<@Sendable (Bin) -> (@Sendable () -> Void)>.retained(counted), releaseBoxOfClosure,
                              GConnectFlags(rawValue: 0))
        let mounts = rtsp.server_get_mount_points(server)
        rtsp.mount_points_add_factory(mounts, path, factory)  // the mount points own the factory
        g_object_unref(mounts)
    }

    /// Disconnects every client, waits (ten seconds at most) until their media have ended, and
    /// stops listening.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        SharedThreads.forbid("stopping an RTSP server (it waits for its media and its loop's thread)")
        // The clients are closed on the loop's own thread, which then ends: closed from here, a
        // client could be freed while the loop reads from its connection.
        let ending = Ending(server: server, rtsp: rtsp)
        let closeAll: @Sendable () -> Void = {
            typealias ClientFilter = @convention(c) (UnsafeMutablePointer<GstRTSPServer>?, UnsafeMutablePointer<GstRTSPClient>?, gpointer?) -> GstRTSPFilterResult
            let removeAll: ClientFilter = { _, _, _ in GST_RTSP_FILTER_REMOVE }
            if let kept = ending.rtsp.server_client_filter(ending.server, removeAll, nil) { g_list_free(kept) }
        }
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { userData in
            CallbackBox<@Sendable () -> Void>.value(userData)()
            return 0  // G_SOURCE_REMOVE: once
        }, CallbackBox<@Sendable () -> Void>.retained(closeAll), releaseBox)
        // A media ends on gst-rtsp-server's own threads once its last client is gone.
        _ = liveMedia.wait(timeout: .now() + 10)
        g_main_loop_quit(loop)
        loopEnded.wait()
    }

    /// Waits until gst-rtsp-server's own threads have ended, once every server has stopped: what
    /// must come before GStreamer is deinitialized, as they release their objects as they end.
    static func endThreads() {
        guard anyMade.load(ordering: .acquiring) else { return }
        RTSPLibrary.loaded?.api.thread_pool_cleanup()
    }

    /// What the loop's thread needs to close the clients and end.
    private struct Ending: @unchecked Sendable {
        // @unchecked Sendable: the server outlives the loop (released only after its thread
        // ended), and gst-rtsp-server's client filter is meant for that thread.
        let server: UnsafeMutablePointer<GstRTSPServer>
        let rtsp: cgst_rtsp_api
    }

    deinit {
        stop()
        g_object_unref(server)
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }
}

/// gst-rtsp-server's functions, from the library loaded when the first server is made.
private struct RTSPLibrary: @unchecked Sendable {
    // @unchecked Sendable: function pointers into a library that stays loaded, never changed.
    let api: cgst_rtsp_api

    static let loaded: RTSPLibrary? = {
        var api = cgst_rtsp_api()
        return cgst_rtsp_load(&api) != 0 ? RTSPLibrary(api: api) : nil
    }()
}

/// A GLib main loop handed to the thread that runs it.
private struct MainLoop: @unchecked Sendable {
    // @unchecked Sendable: GLib's main loop calls (run, quit) are thread-safe, and the loop
    // outlives its thread (the server waits for the thread's end before releasing it).
    let raw: OpaquePointer
}
