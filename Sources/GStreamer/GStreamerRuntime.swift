internal import CGStreamer

/// The GStreamer library as a whole: initialisation, version and teardown.
///
/// Every wrapper in this module initialises GStreamer on first use, so calling
/// ``initialize()`` yourself is only needed to learn early whether it works.
public enum GStreamerRuntime {
    /// Initialises GStreamer once for the process.
    ///
    /// Safe to call from any thread and any number of times; later calls return the first result.
    public static func initialize() throws(GStreamerError) {
        try initialization.get()
    }

    /// The version of the GStreamer library loaded at run time, such as `1.22.0`.
    public static var version: String {
        var major: guint = 0, minor: guint = 0, micro: guint = 0, nano: guint = 0
        gst_version(&major, &minor, &micro, &nano)
        return "\(major).\(minor).\(micro)"
    }

    /// Whether an element factory of this name is installed (`videotestsrc`, `x265enc`, …).
    public static func hasElement(_ factoryName: String) -> Bool {
        guard (try? initialize()) != nil, let factory = gst_element_factory_find(factoryName) else { return false }
        gst_object_unref(UnsafeMutableRawPointer(factory))
        return true
    }

    /// The element factories that encode video into `caps` (such as `video/x-h264`), of at least
    /// marginal rank, highest rank first; their ranks can be changed with `GST_PLUGIN_FEATURE_RANK`.
    public static func videoEncoders(producing caps: String) -> [String] {
        guard (try? initialize()) != nil, let parsed = gst_caps_from_string(caps) else { return [] }
        defer { gst_caps_unref(parsed) }
        let list = cgst_video_encoders(parsed)
        defer { gst_plugin_feature_list_free(list) }
        var names: [String] = []
        var node = list
        while let current = node {
            if let name = gst_object_get_name(current.pointee.data?.assumingMemoryBound(to: GstObject.self)) {
                names.append(String(cString: name))
                g_free(name)
            }
            node = current.pointee.next
        }
        return names
    }

    /// Keeps a device provider out of every device monitor this process makes (its rank is set to
    /// none), for a provider known to misbehave.
    public static func disableDeviceProvider(named name: String) {
        guard (try? requireGStreamer()) != nil, let factory = gst_device_provider_factory_find(name) else { return }
        gst_plugin_feature_set_rank(factory, guint(GST_RANK_NONE.rawValue))  // a device provider factory is a plugin feature
        gst_object_unref(UnsafeMutableRawPointer(factory))
    }

    /// Keeps the warnings and criticals that GLib-based libraries print on their own (such as the
    /// PipeWire device provider's when a node goes away) off standard error, for programs whose
    /// standard error is for their own messages. Errors still go through; `GST_DEBUG` is untouched.
    public static func silenceLibraryWarnings() {
        g_log_set_default_handler({ domain, level, message, _ in
            let quiet = G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue
                | G_LOG_LEVEL_MESSAGE.rawValue | G_LOG_LEVEL_INFO.rawValue | G_LOG_LEVEL_DEBUG.rawValue
            guard level.rawValue & quiet == 0 else { return }
            g_log_default_handler(domain, level, message, nil)
        }, nil)
    }

    /// Frees everything GStreamer holds, so that the `leaks` tracer can report what is still alive.
    ///
    /// Call it only at the very end of a process: GStreamer cannot be used again afterwards.
    public static func deinitialize() {
        RTSPServer.endThreads()
        gst_deinit()
    }
}

/// The outcome of `gst_init_check`, computed once: Swift initialises globals lazily under a lock.
private let initialization: Result<Void, GStreamerError> = {
    var error: UnsafeMutablePointer<GError>?
    if gst_init_check(nil, nil, &error) != 0 {
        // Registers the tag library's tags (capturing-*, geo-*, …) besides MusicBrainz's, despite its name.
        gst_tag_register_musicbrainz_tags()
        // DirectFB's sink crashes the process when no framebuffer console is there (a machine
        // without a display), and autovideosink tries it when the display sinks fail: ranked out,
        // it is used only when named.
        if let factory = gst_element_factory_find("dfbvideosink") {
            gst_plugin_feature_set_rank(factory, guint(GST_RANK_NONE.rawValue))
            gst_object_unref(UnsafeMutableRawPointer(factory))
        }
        return .success(())
    }
    let reason = error.map { String(cString: $0.pointee.message) } ?? "unknown reason"
    g_clear_error(&error)
    return .failure(GStreamerError(
        .initialization,
        "GStreamer could not be initialised (\(reason)); check that the GStreamer 1.x libraries and plugins are installed"))
}()

/// Initialises GStreamer or throws; called by every entry point that creates GStreamer objects.
func requireGStreamer() throws(GStreamerError) {
    try initialization.get()
}
