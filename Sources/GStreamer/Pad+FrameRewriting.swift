internal import CGStreamer
import Synchronization

extension Pad {
    /// Rewrites every raw video frame passing the pad, in place, on the streaming thread: the
    /// handler gets the frame's bytes (made writable first, copied only if something else holds
    /// them) and its layout, as the pad's caps describe it.
    ///
    /// The handler must return quickly: the stream waits for it. Remove the probe to stop.
    @discardableResult
    public func rewriteFrames(_ rewrite: @escaping @Sendable (UnsafeMutableRawBufferPointer, VideoInfo) -> Void) -> PadProbe {
        let layout = LayoutCache()
        let rewriter: Rewriter = { pad, info in
            guard let caps = gst_pad_get_current_caps(pad) else { return }
            defer { gst_caps_unref(caps) }
            guard let videoInfo = layout.info(for: caps), info.pointee.data != nil else { return }
            // The probe owns the buffer in info.data; a shared buffer is swapped for a writable copy.
            let buffer = gst_mini_object_make_writable(info.pointee.data.assumingMemoryBound(to: GstMiniObject.self))
            info.pointee.data = UnsafeMutableRawPointer(buffer)
            let writable = UnsafeMutableRawPointer(buffer!).assumingMemoryBound(to: GstBuffer.self)
            var map = GstMapInfo()
            guard gst_buffer_map(writable, &map, GstMapFlags(rawValue: GST_MAP_READ.rawValue | GST_MAP_WRITE.rawValue)) != 0 else { return }
            defer { gst_buffer_unmap(writable, &map) }
            rewrite(UnsafeMutableRawBufferPointer(start: map.data, count: Int(map.size)), videoInfo)
        }
        let id = gst_pad_add_probe(raw, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, userData in
            CallbackBox<Rewriter>.value(userData)(pad!, info!)
            return GST_PAD_PROBE_OK
        }, CallbackBox<Rewriter>.retained(rewriter), releaseBox)
        return PadProbe(pad: self, id: id)
    }

    /// Rewrites the frame a probe holds, on the pad's streaming thread.
    private typealias Rewriter = @Sendable (UnsafeMutablePointer<GstPad>, UnsafeMutablePointer<GstPadProbeInfo>) -> Void
}

/// The layout of the last caps seen, so frames of unchanged caps are not parsed again. The caps
/// are held, so their address cannot be reused by other caps while it is the key.
private final class LayoutCache: Sendable {
    private let last = Mutex<(caps: Caps, info: VideoInfo)?>(nil)

    func info(for caps: UnsafeMutablePointer<GstCaps>) -> VideoInfo? {
        if let cached = last.withLock({ $0 }), cached.caps.raw == caps { return cached.info }
        let held = Caps(retaining: caps)
        guard let info = try? VideoInfo(caps: held) else { return nil }
        last.withLock { $0 = (held, info) }
        return info
    }
}
