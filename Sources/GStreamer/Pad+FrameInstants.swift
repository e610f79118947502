internal import CGStreamer
import Glibc

extension Pad {
    /// Calls `handler` with the moment each buffer passing the pad was made, on the system's
    /// real-time clock, in seconds since 1970: its presentation time as running time (through the
    /// segment it came in), less its age on the pipeline's clock, from the real-time clock now.
    /// For a live camera that is when the frame was taken, however late it passes. A buffer
    /// undated, or on an element with no clock yet, is not told.
    ///
    /// Runs on the streaming thread before the buffer goes on, which the handler may use to change
    /// the pad's element (the handler's second argument, so the probe holds no reference to the
    /// element that holds it); it must return at once. Remove the probe to stop.
    @discardableResult
    public func onFrameInstant(_ handler: @escaping @Sendable (Double, Element) -> Void) -> PadProbe {
        let id = gst_pad_add_probe(raw, GST_PAD_PROBE_TYPE_BUFFER, { pad, info, userData in
            guard let pad, let buffer = gst_pad_probe_info_get_buffer(info), let element = gst_pad_get_parent_element(pad) else {
                return GST_PAD_PROBE_OK
            }
            let owner = Element(adopting: element)
            if let instant = Pad.instant(of: buffer, at: pad, of: element) {
                CallbackBox<InstantHandler>.value(userData)(instant, owner)
            }
            return GST_PAD_PROBE_OK
        }, CallbackBox<InstantHandler>.retained(handler), releaseBox)
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

    private typealias InstantHandler = @Sendable (Double, Element) -> Void
}
