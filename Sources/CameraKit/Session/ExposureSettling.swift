import GStreamer
import Synchronization

/// When a camera's picture counts as settled after a start or switch: the frame brightness and
/// colour stopped changing. Cameras adjust exposure and white balance over their first frames;
/// a photo taken before that is dark or tinted (the most common complaint about fswebcam and
/// ffmpeg). Waiting for stable statistics beats dropping a fixed number of frames.
public struct ExposureSettling: Sendable, Equatable {
    /// The largest change of mean brightness or colour, as a fraction of full scale, between
    /// frames that still counts as stable.
    public var tolerance: Double
    /// How many frames in a row must be stable.
    public var stableFrames: Int
    /// How long the first photo waits at most; after that it takes the frame it has.
    public var timeout: Duration

    /// Settled when 3 frames in a row differ by at most 1 % in brightness and colour, waiting at most 3 seconds.
    public init(tolerance: Double = 0.01, stableFrames: Int = 3, timeout: Duration = .seconds(3)) {
        self.tolerance = tolerance
        self.stableFrames = stableFrames
        self.timeout = timeout
    }
}

/// Watches the still branch's frames after a start or switch until their statistics settle.
/// Fed on the streaming thread; measures a sparse grid of pixels, and nothing once settled.
final class SettlingMonitor: Sendable {
    /// Mean luma and chroma of a frame, 0 to 1.
    struct Statistics: Equatable {
        let luma: Double
        let blueDifference: Double
        let redDifference: Double

        func differs(from other: Statistics, by tolerance: Double) -> Bool {
            abs(luma - other.luma) > tolerance || abs(blueDifference - other.blueDifference) > tolerance
                || abs(redDifference - other.redDifference) > tolerance
        }
    }

    private struct State {
        var settling: ExposureSettling?
        var previous: Statistics?
        var stableRun = 0
        /// The timestamp of the first settled frame.
        var settledSince: ClockTime?
        var isSettled = true
    }

    private let state = Mutex(State())

    /// Starts watching anew (after a start or a switch); `nil` counts every frame as settled.
    func reset(_ settling: ExposureSettling?) {
        state.withLock { state in
            state = State(settling: settling, isSettled: settling == nil)
        }
    }

    /// Whether the frames have settled.
    var isSettled: Bool { state.withLock { $0.isSettled } }

    /// Whether this frame came at or after the frames settled; a frame read late from a queue
    /// may be older than the moment the monitor saw the picture settle.
    func isSettled(_ frame: Sample) -> Bool {
        state.withLock { state in
            guard state.isSettled else { return false }
            guard let since = state.settledSince, let time = frame.buffer?.presentationTime else { return true }
            return time >= since
        }
    }

    /// Looks at a frame; returns whether the picture is settled with it.
    @discardableResult
    func observe(_ frame: Sample) -> Bool {
        guard let tolerance = state.withLock({ $0.isSettled ? nil : $0.settling?.tolerance }) else { return true }
        guard let statistics = SettlingMonitor.statistics(of: frame) else { return false }
        return state.withLock { state in
            guard !state.isSettled, let settling = state.settling else { return true }
            if let previous = state.previous, !statistics.differs(from: previous, by: tolerance) {
                state.stableRun += 1
            } else {
                state.stableRun = 0
            }
            state.previous = statistics
            if state.stableRun >= max(1, settling.stableFrames - 1) {
                state.isSettled = true
                state.settledSince = frame.buffer?.presentationTime
            }
            return state.isSettled
        }
    }

    /// Mean Y, U and V over a sparse grid of an I420 frame, read in place.
    static func statistics(of frame: Sample) -> Statistics? {
        guard let info = frame.videoInfo, info.format == "I420", info.planes.count == 3 else { return nil }
        return try? frame.withUnsafeBytes { bytes -> Statistics in
            func mean(plane: Int, width: Int, height: Int) -> Double {
                let (offset, stride) = (info.planes[plane].offset, info.planes[plane].stride)
                let step = max(1, min(width, height) / 64)
                var total = 0, count = 0
                for row in Swift.stride(from: 0, to: height, by: step) {
                    let start = offset + row * stride
                    for column in Swift.stride(from: 0, to: width, by: step) where start + column < bytes.count {
                        total += Int(bytes[start + column])
                        count += 1
                    }
                }
                return count == 0 ? 0 : Double(total) / Double(count) / 255
            }
            let chromaWidth = (info.width + 1) / 2, chromaHeight = (info.height + 1) / 2
            return Statistics(luma: mean(plane: 0, width: info.width, height: info.height),
                              blueDifference: mean(plane: 1, width: chromaWidth, height: chromaHeight),
                              redDifference: mean(plane: 2, width: chromaWidth, height: chromaHeight))
        }
    }
}
