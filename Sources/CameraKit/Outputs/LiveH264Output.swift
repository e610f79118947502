import GStreamer
import Synchronization

/// The live picture as H.264 (for RTSP viewers): the preview's picture encoded once for all
/// receivers together, with low latency (no frame held back), and only while there is a receiver.
///
/// Receivers are called on the streaming thread with each access unit (Annex B byte stream,
/// parameter sets before each key frame); they hand it on without waiting.
public final class LiveH264Output: Sendable {
    private let receivers = LiveReceivers<Buffer>()
    private let encoded = Atomic<Int>(0)

    init() {}

    /// The caps of the access units, for a source that takes them.
    public static let caps = "video/x-h264,stream-format=byte-stream,alignment=au"

    /// Calls `receive` with every access unit from now on, until the registration is cancelled or dropped.
    public func addReceiver(_ receive: @escaping @Sendable (Buffer) -> Void) -> LiveReceiver {
        receivers.add(receive)
    }

    /// How many receivers there are now.
    public var receiverCount: Int { receivers.count }

    /// Frames encoded since the session started: one per frame, however many receivers.
    public var encodedFrameCount: Int { encoded.load(ordering: .relaxed) }

    /// Called on the streaming thread with each access unit while someone receives.
    private func deliver(_ sample: Sample) {
        guard let receivers = receivers.current, let buffer = sample.buffer else { return }
        encoded.add(1, ordering: .relaxed)
        for receive in receivers { receive(buffer) }
    }
}

extension LiveH264Output: SessionOutput {
    /// A leaky queue, a valve closed while nobody receives, the fit and turn of the preview, x264
    /// tuned for latency (a key frame every second, so a viewer joining sees a picture within
    /// one), and an app sink.
    func branch(in layout: SessionPipeline) -> String? {
        guard let live = layout.configuration.liveH264 else { return nil }
        let keyInterval = max(1, Int(layout.format.frameRate.doubleValue.rounded()))
        return PreviewFit.liveBranchHead(valve: .h264Valve, size: .h264Size, orientation: .h264Orientation, shut: receiverCount == 0,
                                         caps: live.caps(layout.image), image: layout.image)
            + " ! videoconvert ! video/x-raw,format=I420 ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=\(keyInterval)"
            + " bitrate=\(live.kilobitsPerSecond) ! video/x-h264,profile=constrained-baseline ! h264parse config-interval=-1"
            + " ! \(Self.caps) ! appsink \(SessionElement.h264Frames.assignment) sync=false async=false max-buffers=4 drop=true wait-on-eos=false"
    }

    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) {
        guard layout.configuration.liveH264 != nil else { return }
        let valve = try graph.element(.h264Valve), sink = try graph.appSink(.h264Frames)
        receivers.control(valve)
        sink.setHandlers(onSample: { [self] in deliver($0) })
    }

    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) {
        guard let live = layout.configuration.liveH264 else { return }
        try await PreviewFit.apply(to: graph, valve: .h264Valve, size: .h264Size, orientation: .h264Orientation, caps: live.caps(layout.image), image: layout.image)
    }

    func detach(_ reason: CaptureError) {
        receivers.control(nil)
    }
}

/// The live H.264 frames' largest size and bit rate.
public struct LiveH264Configuration: Sendable, Equatable {
    public var maximumWidth: Int
    public var maximumHeight: Int
    public var kilobitsPerSecond: Int

    public init(maximumWidth: Int = 1280, maximumHeight: Int = 720, kilobitsPerSecond: Int = 2048) {
        (self.maximumWidth, self.maximumHeight, self.kilobitsPerSecond) = (maximumWidth, maximumHeight, kilobitsPerSecond)
    }

    /// The frames' size for the image stage's picture.
    func caps(_ image: ImageStage) -> String {
        PreviewFit.liveCaps(image, maximumWidth: maximumWidth, maximumHeight: maximumHeight)
    }
}
