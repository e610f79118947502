internal import CGStreamer

/// The layout of raw video frames: pixel format, size, frame rate, and where each plane lies.
public struct VideoInfo: Equatable, Sendable {
    /// One plane of a frame (the single plane of RGB, the Y, U and V planes of I420).
    public struct Plane: Equatable, Sendable {
        /// Where the plane starts in the buffer, in bytes.
        public let offset: Int
        /// The distance between the starts of two rows, in bytes (rows may be padded).
        public let stride: Int

        /// Makes a plane description.
        public init(offset: Int, stride: Int) {
            self.offset = offset
            self.stride = stride
        }
    }

    /// The pixel format, as GStreamer names it (`I420`, `RGB`, `YUY2`).
    public let format: String
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Frames per second; `0/1` for a variable rate.
    public let frameRate: Fraction
    /// The planes, in order.
    public let planes: [Plane]
    /// The size of one frame in bytes.
    public let frameSize: Int
    /// Whether YUV samples use the full 0–255 range (as JPEG does) rather than 16–235 (video).
    public var isFullRange: Bool { colour.isFullRange }
    /// The colours the samples mean, as an HEVC stream's VUI and a HEIF file's `nclx` say them.
    public let colour: Colour

    /// Colour primaries, transfer characteristics and matrix coefficients by their ISO/IEC 23091-2
    /// numbers (2: unspecified), and the range.
    public struct Colour: Equatable, Sendable {
        public let primaries: Int
        public let transfer: Int
        public let matrix: Int
        public let isFullRange: Bool
    }

    /// Reads the layout from raw video caps.
    public init(caps: Caps) throws(GStreamerError) {
        guard let info = VideoInfo(caps: caps.raw, buffer: nil) else {
            throw GStreamerError(.invalidCaps, "\(caps) does not describe raw video frames")
        }
        self = info
    }

    /// Reads the layout from caps, preferring the strides and offsets of the buffer's video meta.
    init?(caps: UnsafeMutablePointer<GstCaps>, buffer: UnsafeMutablePointer<GstBuffer>?) {
        var info = GstVideoInfo()
        guard gst_video_info_from_caps(&info, caps) != 0, let formatInfo = info.finfo else { return nil }
        format = borrowedString(gst_video_format_to_string(formatInfo.pointee.format)) ?? "unknown"
        width = Int(info.width)
        height = Int(info.height)
        frameRate = Fraction(Int(info.fps_n), info.fps_d == 0 ? 1 : Int(info.fps_d))
        frameSize = Int(info.size)
        colour = Colour(primaries: Int(gst_video_color_primaries_to_iso(info.colorimetry.primaries)),
                        transfer: Int(gst_video_transfer_function_to_iso(info.colorimetry.transfer)),
                        matrix: Int(gst_video_color_matrix_to_iso(info.colorimetry.matrix)),
                        isFullRange: info.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255)
        let count = Int(formatInfo.pointee.n_planes)
        var offsets = VideoInfo.integers(info.offset, as: gsize.self, count: count)
        var strides = VideoInfo.integers(info.stride, as: gint.self, count: count)
        if let buffer, let meta = gst_buffer_get_meta(buffer, gst_video_meta_api_get_type()) {
            let videoMeta = UnsafeMutableRawPointer(meta).assumingMemoryBound(to: GstVideoMeta.self).pointee
            offsets = VideoInfo.integers(videoMeta.offset, as: gsize.self, count: count)
            strides = VideoInfo.integers(videoMeta.stride, as: gint.self, count: count)
        }
        planes = zip(offsets, strides).map { Plane(offset: $0, stride: $1) }
    }

    /// The first `count` integers of a C array imported as a tuple.
    private static func integers<Tuple, Integer: BinaryInteger>(_ tuple: Tuple, as: Integer.Type, count: Int) -> [Int] {
        withUnsafeBytes(of: tuple) { bytes in
            bytes.bindMemory(to: Integer.self).prefix(count).map { Int($0) }
        }
    }
}
