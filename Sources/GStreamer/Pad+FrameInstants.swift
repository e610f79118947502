internal import CGStreamer
import Glibc

extension Pad {
    /// Sets the string property `property` of this pad's element, as each buffer passing the pad
    /// reaches it, to what `text` makes of the moment the buffer was made (`nil`: leave it), on
    /// the system's real-time clock in seconds since 1970: the buffer's presentation time as
    /// running time (through the segment it came in), less its age on the pipeline's clock, from
    /// the real-time clock now. For a live camera that is when the frame was taken, however late it
    /// passes; the element draws the buffer with the text set for it. A buffer undated, or on an
    /// element with no clock yet, changes nothing.
    ///
    /// Runs on the streaming thread and must return at once; nothing is allocated for a buffer
    /// whose text stays. Remove the probe to stop.
    @discardableResult
    public func setOnEachFrame(_ property: String, to text: @escaping @Sendable (Double) -> String?) -> PadProbe {
        let id = gst_pad_add_probe(raw, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, userData in
            guard let pad, let buffer = gst_pad_probe_info_get_buffer(info), let element = gst_pad_get_parent_element(pad) else {
                return GST_PAD_PROBE_OK
            }
            defer { gst_object_unref(element) }
            let (property, text) = CallbackBox<(String, Setter)>.value(userData)
            guard let instant = Pad.instant(of: buffer, at: pad, of: element), let words = text(instant) else { return GST_PAD_PROBE_OK }
            var value = GValue()
            g_value_init(&value, cgst_type_string())
            g_value_set_string(&value, words)
            g_object_set_property(UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self), property, &value)
            g_value_unset(&value)
            return GST_PAD_PROBE_OK
        }, CallbackBox<(String, Setter)>.retained((property, text)), releaseBox)
        return PadProbe(pad: self, id: id)
    }

    private static func instant(of buffer: UnsafeMutablePointer<GstBuffer>, at pad: UnsafeMutablePointer<GstPad>,
                                of element: UnsafeMutablePointer<GstElement>) -> Double? {
        let pts = buffer.pointee.pts
        guard pts != GstClockTime.max else { return nil }
        guard let clock = gst_element_get_clock(element) else { return nil }
        defer { gst_object_unref(clock) }
        var running = pts
        if let event = gst_pad_get_sticky_event(pad, GST_EVENT_SEGMENT, 0) {
            defer { gst_event_unref(event) }
            var segment: UnsafePointer<GstSegment>?
            gst_event_parse_segment(event, &segment)
            if let segment, segment.pointee.format == GST_FORMAT_TIME {
                running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts)
                guard running != GstClockTime.max else { return nil }
            }
        }
        let made = Double(gst_element_get_base_time(element)) + Double(running)
        let age = (Double(gst_clock_get_time(clock)) - made) / 1e9
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - age
    }

    private typealias Setter = @Sendable (Double) -> String?
}
