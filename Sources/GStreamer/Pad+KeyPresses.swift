internal import CGStreamer

extension Pad {
    /// Calls `handler` with each key pressed in a window sink's window downstream of this pad, by
    /// its X key name (`space`, `Return`, `q`, `KP_Add`): window sinks send GStreamer's navigation
    /// events upstream. Runs on the sink's thread and must return at once.
    ///
    /// Every other upstream event (a sink's quality report comes with each frame) passes untouched,
    /// looked at only for its type.
    @discardableResult
    public func onKeyPress(_ handler: @escaping @Sendable (String) -> Void) -> PadProbe {
        let id = gst_pad_add_probe(raw, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM, { _, info, userData in
            guard let event = gst_pad_probe_info_get_event(info), event.pointee.type == GST_EVENT_NAVIGATION,
                  gst_navigation_event_get_type(event) == GST_NAVIGATION_EVENT_KEY_PRESS else { return GST_PAD_PROBE_OK }
            var key: UnsafePointer<gchar>?
            if gst_navigation_event_parse_key_event(event, &key) != 0, let name = borrowedString(key) {
                CallbackBox<KeyHandler>.value(userData)(name)
            }
            return GST_PAD_PROBE_OK
        }, CallbackBox<KeyHandler>.retained(handler), releaseBox)
        return PadProbe(pad: self, id: id)
    }

    private typealias KeyHandler = @Sendable (String) -> Void
}
