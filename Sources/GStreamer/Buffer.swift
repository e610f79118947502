internal import CGStreamer

/// A block of media data with timestamps: one video frame, one encoded picture.
///
/// Buffers are immutable once made; reading them maps the memory in place, without copying.
public final class Buffer: @unchecked Sendable {
    // @unchecked Sendable: its only state is its reference; the buffer is never written after
    // creation, and read mappings may be taken from several threads at once.
    private let reference: MiniObjectReference
    var raw: UnsafeMutablePointer<GstBuffer> { reference.pointer(to: GstBuffer.self) }

    /// Takes over a reference the caller owned.
    init(adopting raw: UnsafeMutablePointer<GstBuffer>) {
        reference = MiniObjectReference(adopting: raw)
    }

    /// Takes a new reference to a buffer someone else owns.
    init(retaining raw: UnsafeMutablePointer<GstBuffer>) {
        reference = MiniObjectReference(retaining: raw)
    }

    /// Allocates a buffer of `count` bytes and lets `body` fill it, for pushing into an ``AppSource``.
    public init(
        count: Int,
        presentationTime: ClockTime? = nil,
        duration: ClockTime? = nil,
        initializingWith body: (UnsafeMutableRawBufferPointer) throws -> Void
    ) throws {
        try requireGStreamer()
        reference = MiniObjectReference(adopting: gst_buffer_new_allocate(nil, gsize(count), nil))
        raw.pointee.pts = presentationTime.map { GstClockTime($0.rawValue) } ?? GstClockTime.max
        raw.pointee.duration = duration.map { GstClockTime($0.rawValue) } ?? GstClockTime.max
        var map = GstMapInfo()
        guard gst_buffer_map(raw, &map, GST_MAP_WRITE) != 0 else {
            throw GStreamerError(.flow, "a new buffer of \(count) bytes could not be mapped for writing")
        }
        defer { gst_buffer_unmap(raw, &map) }
        try body(UnsafeMutableRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// Makes a buffer holding a copy of `bytes`.
    public convenience init(
        copying bytes: UnsafeRawBufferPointer,
        presentationTime: ClockTime? = nil,
        duration: ClockTime? = nil
    ) throws {
        try self.init(count: bytes.count, presentationTime: presentationTime, duration: duration) { target in
            target.copyMemory(from: bytes)
        }
    }

    /// The size of the data in bytes.
    public var count: Int { Int(gst_buffer_get_size(raw)) }

    /// When the buffer is to be shown, on the stream's clock.
    public var presentationTime: ClockTime? { ClockTime(raw.pointee.pts) }

    /// When the buffer is to be decoded, where that differs from presentation.
    public var decodeTime: ClockTime? { ClockTime(raw.pointee.dts) }

    /// How long the buffer lasts.
    public var duration: ClockTime? { ClockTime(raw.pointee.duration) }

    /// The element-specific offset; for raw video from most sources, the frame number.
    public var offset: UInt64? {
        raw.pointee.offset == UInt.max ? nil : UInt64(raw.pointee.offset)
    }

    /// Whether this buffer can be decoded only with earlier ones (not a key frame).
    public var isDeltaUnit: Bool {
        raw.pointee.mini_object.flags & GST_BUFFER_FLAG_DELTA_UNIT.rawValue != 0
    }

    /// Reads the data in place: the memory is mapped for the duration of `body` and not copied.
    ///
    /// The pointer is valid only inside `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        var map = GstMapInfo()
        guard gst_buffer_map(raw, &map, GST_MAP_READ) != 0 else {
            throw GStreamerError(.flow, "a buffer of \(count) bytes could not be mapped for reading")
        }
        defer { gst_buffer_unmap(raw, &map) }
        return try body(UnsafeRawBufferPointer(start: map.data, count: Int(map.size)))
    }

    /// A copy of the data, for keeping beyond the buffer (an encoded photo, say).
    public func bytes() throws -> [UInt8] {
        try withUnsafeBytes { Array($0) }
    }
}
