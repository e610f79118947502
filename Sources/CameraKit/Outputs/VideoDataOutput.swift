import GStreamer
import Synchronization

/// A raw video frame delivered to Swift: read in place, never copied.
public struct VideoFrame: Sendable {
    /// The sample holding the frame and its caps.
    public let sample: Sample

    /// The frame's timestamp on the session's running time.
    public var presentationTime: ClockTime? { sample.buffer?.presentationTime }
    /// The frame's number in the stream, where the source numbers frames.
    public var number: UInt64? { sample.buffer?.offset }
    /// Format, size, strides and plane offsets.
    public var info: VideoInfo? { sample.videoInfo }

    /// Reads the frame's bytes in place; the pointer is valid only inside `body`.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try sample.withUnsafeBytes(body)
    }
}

/// Delivers the session's frames to Swift code, as AVCaptureVideoDataOutput does.
///
/// Each consumer gets its own bounded stream; a consumer that falls behind loses its oldest
/// frames, counted in ``droppedFrameCount``, and never slows the preview or the photos.
public final class VideoDataOutput: Sendable {
    private let broadcast = Broadcast<VideoFrame>()
    private let delivered = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)

    init() {}

    /// The frames from now on, keeping at most `limit` unread.
    public func frames(bufferingNewest limit: Int = 2) -> AsyncStream<VideoFrame> {
        broadcast.subscribe(bufferingNewest: limit)
    }

    /// Frames the session delivered to this output.
    public var deliveredFrameCount: Int { delivered.load(ordering: .relaxed) }

    /// Frames a slow consumer lost (counted once per consumer that lost it).
    public var droppedFrameCount: Int { dropped.load(ordering: .relaxed) }

    /// Called on the streaming thread for each frame.
    private func deliver(_ sample: Sample) {
        delivered.add(1, ordering: .relaxed)
        let lost = broadcast.send(VideoFrame(sample: sample))
        if lost > 0 { dropped.add(lost, ordering: .relaxed) }
    }
}

extension VideoDataOutput: SessionOutput {
    /// A leaky queue, the conversion to the asked pixel format, and an app sink.
    func branch(in layout: SessionPipeline) -> String? {
        guard let videoData = layout.configuration.videoData else { return nil }
        return "split. ! queue name=frames_queue leaky=downstream max-size-buffers=2 max-size-bytes=0 max-size-time=0 "
            + "! videoconvert ! video/x-raw,format=\(videoData.pixelFormat) "
            + "! appsink \(SessionElement.frames.assignment) sync=false max-buffers=2 drop=true wait-on-eos=false"
    }

    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) {
        guard layout.configuration.videoData != nil else { return }
        try graph.appSink(.frames).setHandlers(onSample: { [self] in deliver($0) })
    }
}
