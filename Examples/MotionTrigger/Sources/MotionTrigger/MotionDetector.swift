import CameraKit
import GStreamer
import Synchronization

/// An output that watches the camera's frames, brought down to 64x48 grey levels, and calls
/// `onMotion` with the score of each frame that moved more than `threshold` from the one before;
/// after a call it lets `quietFrames` frames pass before it calls again. A camera switched to
/// starts it over, so a switch is never taken for motion.
///
/// ```swift
/// let detector = MotionDetector(threshold: 0.08) { score in … }
/// session.add(detector)
/// ```
public final class MotionDetector: CustomOutput {
    /// The size frames are compared at.
    public static let width = 64, height = 48

    private let threshold: Double
    private let quietFrames: Int
    private let onMotion: @Sendable (Double) -> Void
    private let state = Mutex(State())

    private struct State {
        var previous: [UInt8]?
        var quietLeft = 0
    }

    public init(threshold: Double = 0.08, quietFrames: Int = 15, onMotion: @escaping @Sendable (Double) -> Void) {
        (self.threshold, self.quietFrames, self.onMotion) = (threshold, quietFrames, onMotion)
    }

    public func branch(in layout: SessionPipeline) -> String? {
        "split. ! queue leaky=downstream max-size-buffers=1 ! videoconvert ! videoscale "
            + "! video/x-raw,format=GRAY8,width=\(Self.width),height=\(Self.height) ! appsink name=motion_frames sync=false max-buffers=1 drop=true"
    }

    public func attach(to graph: SessionGraph) throws(CaptureError) {
        guard let sink = graph.element(named: "motion_frames")?.as(AppSink.self) else {
            throw CaptureError(.pipeline, "the motion detector's app sink is missing")
        }
        // On the streaming thread: the frame is read in place, and only `onMotion` is told.
        sink.setHandlers(onSample: { [self] sample in
            let stride = sample.videoInfo?.planes.first?.stride ?? Self.width
            try? sample.withUnsafeBytes { frame in feed(frame, stride: stride) }
        })
    }

    public func cameraChanged(to source: Bin, layout: SessionPipeline) {
        startOver()
    }

    public func detach() {
        startOver()
    }

    /// Compares a frame of ``width`` x ``height`` grey levels, rows `stride` bytes apart, with
    /// the one before, and tells of motion.
    public func feed(_ frame: UnsafeRawBufferPointer, stride: Int) {
        let moved: Double? = state.withLock { state in
            guard var previous = state.previous, previous.count == frame.count else {
                state.previous = Array(frame)  // the first frame, or one of another size
                return nil
            }
            state.previous = nil  // held alone here, so the frame is copied into it in place: no allocation a frame
            defer {
                previous.withUnsafeMutableBytes { $0.copyMemory(from: frame) }
                state.previous = previous
            }
            if state.quietLeft > 0 {
                state.quietLeft -= 1
                return nil
            }
            let score = previous.withUnsafeBytes { MotionScore.between($0, frame, width: Self.width, height: Self.height, stride: stride) }
            guard score > threshold else { return nil }
            state.quietLeft = quietFrames
            return score
        }
        if let moved { onMotion(moved) }
    }

    /// Forgets the frame before: the next one is compared with nothing.
    private func startOver() {
        state.withLock { $0 = State() }
    }
}
