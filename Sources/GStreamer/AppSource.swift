internal import CGStreamer

/// A source fed from Swift: push buffers in, then end the stream.
public final class AppSource: Element, @unchecked Sendable {
    // @unchecked Sendable: adds no state to Element's; GstAppSrc's push calls are thread-safe.
    override class var requiredType: GType? { gst_app_src_get_type() }

    private var appSource: UnsafeMutablePointer<GstAppSrc> { upcast(raw) }

    /// Makes an app source whose buffers carry times (`format=time`).
    ///
    /// - Parameters:
    ///   - name: The element name.
    ///   - caps: The format of the buffers that will be pushed.
    ///   - isLive: Whether it behaves like a camera (data only while playing) rather than a file.
    public convenience init(name: String? = nil, caps: Caps? = nil, isLive: Bool = false) throws(GStreamerError) {
        try self.init(factory: "appsrc", name: name)
        self.caps = caps
        gst_app_src_set_stream_type(appSource, GST_APP_STREAM_TYPE_STREAM)
        try setProperty("format", .enumeration("time"))
        try setProperty("is-live", isLive)
    }

    /// The format of the pushed buffers.
    public var caps: Caps? {
        get { gst_app_src_get_caps(appSource).map { Caps(adopting: $0) } }
        set { gst_app_src_set_caps(appSource, newValue?.raw) }
    }

    /// Bytes queued and not yet taken by the pipeline.
    public var queuedBytes: Int { Int(gst_app_src_get_current_level_bytes(appSource)) }

    /// Queues a buffer for the pipeline. The buffer is shared, not copied.
    public func push(_ buffer: Buffer) throws(GStreamerError) {
        try check(gst_app_src_push_buffer(appSource, gst_buffer_ref(buffer.raw)), "push a buffer")
    }

    /// Queues a sample's buffer and, when they changed, its caps. Nothing is copied.
    public func push(_ sample: Sample) throws(GStreamerError) {
        try check(gst_app_src_push_sample(appSource, sample.raw), "push a sample")
    }

    /// Queues a buffer dated anew by this source (`do-timestamp`), for a buffer of another
    /// pipeline whose running time means nothing here: only its metadata is copied, not its memory.
    public func pushRedated(_ buffer: Buffer) throws(GStreamerError) {
        guard let copy = gst_buffer_copy(buffer.raw) else { return }
        copy.pointee.pts = GstClockTime.max  // GST_CLOCK_TIME_NONE
        copy.pointee.dts = GstClockTime.max
        try check(gst_app_src_push_buffer(appSource, copy), "push a buffer")
    }

    /// Queues a buffer of another pipeline at a time of this one's stream: only its metadata is
    /// copied, not its memory.
    public func push(_ buffer: Buffer, at time: ClockTime, duration: ClockTime?) throws(GStreamerError) {
        guard let copy = gst_buffer_copy(buffer.raw) else { return }
        copy.pointee.pts = GstClockTime(time.rawValue)
        copy.pointee.dts = GstClockTime.max
        copy.pointee.duration = duration.map { GstClockTime($0.rawValue) } ?? GstClockTime.max
        try check(gst_app_src_push_buffer(appSource, copy), "push a buffer")
    }

    /// Ends the stream after the queued buffers.
    public func endOfStream() throws(GStreamerError) {
        try check(gst_app_src_end_of_stream(appSource), "end the stream")
    }

    private func check(_ result: GstFlowReturn, _ action: String) throws(GStreamerError) {
        switch result {
        case GST_FLOW_OK:
            return
        case GST_FLOW_FLUSHING:
            throw GStreamerError(.flow, element: name, "cannot \(action): the pipeline is not playing or paused")
        case GST_FLOW_EOS:
            throw GStreamerError(.flow, element: name, "cannot \(action): the stream has already ended")
        default:
            let reason = borrowedString(gst_flow_get_name(result)) ?? "error"
            throw GStreamerError(.flow, element: name, "cannot \(action): the pipeline answered \(reason)")
        }
    }
}
