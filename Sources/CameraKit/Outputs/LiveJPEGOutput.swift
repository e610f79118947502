import Glibc
import GStreamer
import Synchronization

/// The live picture as JPEG frames at a preview's size, for browsers (an MJPEG stream): each frame
/// is encoded once for all receivers together, and only while there is a receiver.
///
/// Receivers are called on the streaming thread with each frame: they hand it on without
/// waiting (a slow viewer drops its own frames), and never slow the camera, the photos or each other.
public final class LiveJPEGOutput: Sendable {
    /// One encoded frame.
    public struct Frame: Sendable {
        public let jpeg: [UInt8]
        /// The frame's timestamp on the session's running time.
        public let presentationTime: ClockTime?
        /// When the camera took the frame, on this machine's monotonic clock (`CLOCK_MONOTONIC`,
        /// nanoseconds), so a client on it can tell how old the frame is when it arrives.
        public let capturedAt: UInt64?
        private let made = MadeOnce()

        init(jpeg: [UInt8], presentationTime: ClockTime?, capturedAt: UInt64?) {
            (self.jpeg, self.presentationTime, self.capturedAt) = (jpeg, presentationTime, capturedAt)
        }

        /// Bytes made of the frame (a viewer's part of a multipart stream), made by the first
        /// receiver that asks for `kind` and shared by the others, which are handed the same
        /// frame: however many receive, each kind is made once a frame.
        public func shared(_ kind: String, making make: () -> [UInt8]) -> [UInt8] {
            made.bytes.withLock { made in
                if let bytes = made[kind] { return bytes }
                let bytes = make()
                made[kind] = bytes
                return bytes
            }
        }

        /// What the receivers of one frame have made of it, by kind.
        private final class MadeOnce: Sendable {
            let bytes = Mutex<[String: [UInt8]]>([:])
        }
    }

    private let receivers = LiveReceivers<Frame>()
    /// The app sink, whose running time dates the frames.
    private let sink = Mutex<Element?>(nil)
    private let encoded = Atomic<Int>(0)
    private let passed = Atomic<Int>(0)

    init() {}

    /// Calls `receive` with every frame from now on, until the registration is cancelled or dropped.
    public func addReceiver(_ receive: @escaping @Sendable (Frame) -> Void) -> LiveReceiver {
        receivers.add(receive)
    }

    /// How many receivers there are now.
    public var receiverCount: Int { receivers.count }

    /// Frames encoded since the session started: one per frame, however many receivers.
    public var encodedFrameCount: Int { encoded.load(ordering: .relaxed) }

    /// An MJPEG camera's own frames passed on as they are, without an encode.
    public var passedThroughFrameCount: Int { passed.load(ordering: .relaxed) }

    /// Called on the streaming thread for each frame while someone receives: encoded by the branch,
    /// or (`passing`) the camera's own JPEG.
    private func deliver(_ sample: Sample, passing: Bool = false) {
        // No one receiving (a camera's own JPEGs come whether or not anyone watches): nothing to do.
        guard let receivers = receivers.current, let buffer = sample.buffer, let jpeg = try? buffer.bytes() else { return }
        if passing { passed.add(1, ordering: .relaxed) } else { encoded.add(1, ordering: .relaxed) }
        let frame = Frame(jpeg: jpeg, presentationTime: buffer.presentationTime, capturedAt: capturedAt(buffer.presentationTime))
        for receive in receivers { receive(frame) }
    }

    /// When a frame of running time `time` was taken, on the monotonic clock: the pipeline's clock
    /// (GStreamer's system clock, monotonic) now, less how long ago in running time that was.
    private func capturedAt(_ time: ClockTime?) -> UInt64? {
        guard let time, let running = sink.withLock({ $0 })?.runningTime, running.rawValue >= time.rawValue else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        return nanoseconds - (running.rawValue - time.rawValue)
    }
}

extension LiveJPEGOutput: SessionOutput {
    /// A leaky queue, a valve closed while nobody receives, the fit and turn of the preview, the
    /// encoder and an app sink.
    func branch(in layout: SessionPipeline) -> String? {
        guard let live = layout.configuration.liveJPEG else { return nil }
        return PreviewFit.liveBranchHead(valve: .liveValve, size: .liveSize, orientation: .liveOrientation, shut: receiverCount == 0,
                                         caps: live.caps(layout.image), image: layout.image)
            + " ! jpegenc quality=\(live.quality) ! appsink \(SessionElement.liveFrames.assignment) sync=false async=false max-buffers=1 drop=true wait-on-eos=false"
    }

    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) {
        guard layout.configuration.liveJPEG != nil else { return }
        let valve = try graph.element(.liveValve), frames = try graph.appSink(.liveFrames)
        sink.withLock { $0 = frames }
        frames.setHandlers(onSample: { [self] in deliver($0) })
        receivers.control(valve)
        takeCameraJPEGs(of: graph.source, layout: layout)
    }

    /// A new camera: its own JPEGs pass on, or the branch encodes.
    func cameraChanged(to source: Bin, layout: SessionPipeline) {
        guard layout.configuration.liveJPEG != nil else { return }
        takeCameraJPEGs(of: source, layout: layout)
    }

    /// Takes an MJPEG camera's own frames when they can pass as they are; opens the encoding
    /// branch (while someone receives) when they cannot.
    private func takeCameraJPEGs(of source: Bin, layout: SessionPipeline) {
        let cameraSink = layout.passesCameraJPEGsLive ? source.element(named: SessionElement.cameraLiveJPEGs.rawValue, as: AppSink.self) : nil
        receivers.keepBranchShut(cameraSink != nil)
        cameraSink?.setHandlers(onSample: { [self] in deliver($0, passing: true) })
    }

    /// Fits and turns the frames as the new settings say; the camera's own JPEGs pass on only while
    /// the settings leave them as they are.
    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) {
        guard let live = layout.configuration.liveJPEG else { return }
        takeCameraJPEGs(of: graph.source, layout: layout)
        try await PreviewFit.apply(to: graph, valve: .liveValve, size: .liveSize, orientation: .liveOrientation, caps: live.caps(layout.image), image: layout.image)
    }

    func detach(_ reason: CaptureError) {
        receivers.control(nil)
        sink.withLock { $0 = nil }
    }
}

/// The live JPEG frames' largest size and quality.
public struct LiveJPEGConfiguration: Sendable, Equatable {
    public var maximumWidth: Int
    public var maximumHeight: Int
    /// JPEG quality, 1 to 100.
    public var quality: Int

    public init(maximumWidth: Int = 1280, maximumHeight: Int = 720, quality: Int = 80) {
        (self.maximumWidth, self.maximumHeight, self.quality) = (maximumWidth, maximumHeight, quality)
    }

    /// The frames' size for the image stage's picture.
    func caps(_ image: ImageStage) -> String {
        PreviewFit.liveCaps(image, maximumWidth: maximumWidth, maximumHeight: maximumHeight)
    }
}
