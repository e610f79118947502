internal import CGStreamer

/// A buffer together with the caps that describe it, as an app sink delivers it.
public final class Sample: @unchecked Sendable {
    // @unchecked Sendable: its only state is its reference, and samples are immutable.
    private let reference: MiniObjectReference
    var raw: OpaquePointer { reference.opaque }

    /// Takes over a reference the caller owned.
    init(adopting raw: OpaquePointer) {
        reference = MiniObjectReference(adopting: raw)
    }

    /// A sample of a buffer described by caps, to push into an ``AppSource``.
    public convenience init(buffer: Buffer, caps: Caps) {
        self.init(adopting: gst_sample_new(buffer.raw, caps.raw, nil, nil))
    }

    /// The data.
    public var buffer: Buffer? {
        gst_sample_get_buffer(raw).map { Buffer(retaining: $0) }
    }

    /// The buffer's presentation time as running time: its place on the pipeline's clock since
    /// it started playing, through the segment the buffer came in (which a source may start
    /// anywhere). `nil` when the buffer is undated or outside its segment.
    public var runningTime: ClockTime? {
        guard let buffer = gst_sample_get_buffer(raw), let time = ClockTime(buffer.pointee.pts) else { return nil }
        guard let segment = gst_sample_get_segment(raw), segment.pointee.format == GST_FORMAT_TIME else { return time }
        return ClockTime(gst_segment_to_running_time(segment, GST_FORMAT_TIME, GstClockTime(time.rawValue)))
    }

    /// The format of the data.
    public var caps: Caps? {
        gst_sample_get_caps(raw).map { Caps(retaining: $0) }
    }

    /// The layout of a raw video frame: format, size and, from the buffer's video metadata
    /// where the source padded its rows, the real strides and plane offsets.
    public var videoInfo: VideoInfo? {
        guard let caps = gst_sample_get_caps(raw) else { return nil }
        return VideoInfo(caps: caps, buffer: gst_sample_get_buffer(raw))
    }

    /// Reads the buffer's data in place, without copying; see ``Buffer/withUnsafeBytes(_:)``.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        guard let buffer = gst_sample_get_buffer(raw) else {
            throw GStreamerError(.flow, "the sample holds no buffer")
        }
        return try Buffer(retaining: buffer).withUnsafeBytes(body)
    }
}
