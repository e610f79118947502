internal import CGStreamer

extension Pad {
    /// Dates every buffer passing the pad by its arrival: its presentation and decode times become
    /// the running time of the pad's element at that moment, as `do-timestamp` dates a source's
    /// undated buffers. For a source whose own times are missing or on another timeline.
    ///
    /// Runs on the streaming thread; only the buffers' metadata is made writable. Remove the probe to stop.
    @discardableResult
    public func dateOnArrival() -> PadProbe {
        let dater: Dater = { pad, info in
            guard let buffer = gst_pad_probe_info_get_buffer(info), let now = Self.runningTime(of: pad) else { return }
            let writable = gst_mini_object_make_writable(UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: GstMiniObject.self))
            info.pointee.data = UnsafeMutableRawPointer(writable)
            let dated = UnsafeMutableRawPointer(writable!).assumingMemoryBound(to: GstBuffer.self)
            dated.pointee.pts = now
            dated.pointee.dts = now
        }
        let id = gst_pad_add_probe(raw, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, userData in
            CallbackBox<Dater>.value(userData)(pad!, info!)
            return GST_PAD_PROBE_OK
        }, CallbackBox<Dater>.retained(dater), releaseBox)
        return PadProbe(pad: self, id: id)
    }

    /// The running time of the pad's element now: its clock's time less its base time.
    private static func runningTime(of pad: UnsafeMutablePointer<GstPad>) -> GstClockTime? {
        guard let element = gst_pad_get_parent_element(pad) else { return nil }
        defer { gst_object_unref(element) }
        guard let clock = gst_element_get_clock(element) else { return nil }
        defer { gst_object_unref(clock) }
        let now = gst_clock_get_time(clock), base = gst_element_get_base_time(element)
        return now != GstClockTime.max && now >= base ? now - base : nil
    }

    /// Dates the buffer a probe holds.
    private typealias Dater = @Sendable (UnsafeMutablePointer<GstPad>, UnsafeMutablePointer<GstPadProbeInfo>) -> Void
}
