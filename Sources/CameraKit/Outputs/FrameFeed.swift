import FoundationEssentials
import Glibc
import GStreamer
import Synchronization

/// The latest full-resolution frame of the still branch, kept by reference (not copied), so a
/// capture can take the frame that was on screen at the request: zero shutter lag. Captures that
/// want later frames (quality prioritization, bursts) collect them as they arrive. Only one frame
/// is held: each held frame keeps a camera buffer out of its pool (3 MB at 1080p, 18 MB at 12 MP).
///
/// Fed from the streaming thread; never blocks it.
final class FrameFeed: Sendable {
    private struct Collector {
        var remaining: Int
        let continuation: AsyncThrowingStream<Sample, any Error>.Continuation
    }

    private struct State {
        var latest: Sample?
        /// How many frames the feed has taken in all: the newest one's number.
        var taken: UInt64 = 0
        /// The system's real-time clock at the pipeline's running time zero (seconds since 1970),
        /// as the latest close measure found it: a frame's instant is this plus its timestamp.
        var realTimeAtZero: Double?
        /// The recent frames themselves, kept while a capture near an instant waits (``holdRecent()``).
        var recent: [Sample] = []
        var recentHolders = 0
        /// Frames taken before this time are refused (see ``refuseFrames(before:)``).
        var earliest: ClockTime?
        var collectors: [Int: Collector] = [:]
        var nextCollectorID = 0
        var closedReason: CaptureError? = CaptureError(.notRunning, "the session is not running; start it before capturing")
    }

    private let state = Mutex(State())

    /// Accepts frames from now on.
    func open() {
        state.withLock { state in
            state.closedReason = nil
            state.latest = nil
            state.earliest = nil
            state.realTimeAtZero = nil
            state.recent = []
        }
    }

    /// Forgets the frame held and refuses frames taken before `time`: frames made before a
    /// change of the image settings, still on their way to the still branch.
    func refuseFrames(before time: ClockTime) {
        state.withLock { state in
            state.earliest = time
            if let held = state.latest?.buffer?.presentationTime, held < time { state.latest = nil }
        }
    }

    /// Stops accepting frames, forgets those held, and fails every collector with `reason`.
    func close(_ reason: CaptureError) {
        let collectors = state.withLock { state in
            state.closedReason = reason
            state.latest = nil
            defer { state.collectors.removeAll() }
            return Array(state.collectors.values)
        }
        for collector in collectors { collector.continuation.finish(throwing: reason) }
    }

    /// A measure of the system's real-time clock at the pipeline's running time zero, in seconds
    /// since 1970, and how far it may be off.
    struct RealTimeAtZero {
        let seconds: Double
        let uncertainty: Double
    }

    /// How far off a measure of the real-time clock may be for the feed to take it in place of
    /// one it has: a millisecond, where a measure on a quiet machine is off by microseconds.
    static let closeMeasure = 0.001

    /// Adds the newest frame, and the real-time clock at running time zero as measured at its
    /// arrival (when known): the first measure is kept, then only close ones (within
    /// ``closeMeasure``). Called on the streaming thread.
    func append(_ sample: Sample, realTimeAtZero measure: RealTimeAtZero? = nil) {
        let (receivers, finished) = state.withLock { state -> ([Collector], [Collector]) in
            guard state.closedReason == nil else { return ([], []) }
            if let earliest = state.earliest, let time = sample.buffer?.presentationTime, time < earliest { return ([], []) }
            state.latest = sample
            state.taken += 1
            if let measure, state.realTimeAtZero == nil || measure.uncertainty <= Self.closeMeasure {
                state.realTimeAtZero = measure.seconds
            }
            if state.recentHolders > 0 {
                state.recent.append(sample)
                if state.recent.count > Self.keptRecent { state.recent.removeFirst() }
            }
            var finished: [Collector] = []
            for (id, var collector) in state.collectors {
                collector.remaining -= 1
                if collector.remaining == 0 {
                    state.collectors.removeValue(forKey: id)
                    finished.append(collector)
                } else {
                    state.collectors[id] = collector
                }
            }
            return (Array(state.collectors.values) + finished, finished)
        }
        for receiver in receivers { receiver.continuation.yield(sample) }
        for collector in finished { collector.continuation.finish() }
    }

    /// How many recent frames are held while a capture near an instant waits: each holds a camera
    /// buffer, so only a few, and only then.
    static let keptRecent = 4

    /// Holds the recent frames (besides the newest) until ``releaseRecent()``, so a capture near an
    /// instant that has just passed can still take the frame nearest it.
    func holdRecent() {
        state.withLock { state in
            state.recentHolders += 1
            if state.recentHolders == 1, let latest = state.latest { state.recent = [latest] }
        }
    }

    func releaseRecent() {
        state.withLock { state in
            state.recentHolders -= 1
            if state.recentHolders == 0 { state.recent = [] }
        }
    }

    /// The recent frames held, oldest first.
    func recentFrames() -> [Sample] {
        state.withLock { $0.recent }
    }

    /// When the camera took a frame of this session, on the system's real-time clock; `nil` when
    /// unknown. Every frame's timestamp is on the same running time, so one measured offset dates
    /// them all, however long after its arrival a frame is dated.
    func instant(of sample: Sample) -> Date? {
        guard let time = sample.buffer?.presentationTime, let zero = state.withLock({ $0.realTimeAtZero }) else { return nil }
        return Date(timeIntervalSince1970: zero + time.seconds)
    }

    /// The newest frame, or `nil` before the first.
    func latest() throws(CaptureError) -> Sample? {
        try state.withLock { state throws(CaptureError) in
            if let reason = state.closedReason { throw reason }
            return state.latest
        }
    }

    /// The newest frame and its number, which no other frame of the feed had or will have (a
    /// frame encoded once can be known again by it); `nil` before the first.
    func latestNumbered() throws(CaptureError) -> (frame: Sample, number: UInt64)? {
        try state.withLock { state throws(CaptureError) in
            if let reason = state.closedReason { throw reason }
            return state.latest.map { ($0, state.taken) }
        }
    }

    /// The next `count` frames as they arrive, each one distinct. The stream keeps every frame
    /// until it is read, or only the newest `kept` (a reader that may fall behind, and tells the
    /// frames it missed by their numbers); it fails when the session stops, or when no frame
    /// comes for `frameTimeout`.
    func frames(count: Int, frameTimeout: Duration, keepingAtMost kept: Int? = nil) -> AsyncThrowingStream<Sample, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Sample.self, bufferingPolicy: kept.map { .bufferingNewest($0) } ?? .unbounded)
        let id = state.withLock { state -> Int? in
            if let reason = state.closedReason {
                continuation.finish(throwing: reason)
                return nil
            }
            defer { state.nextCollectorID += 1 }
            state.collectors[state.nextCollectorID] = Collector(remaining: max(1, count), continuation: continuation)
            return state.nextCollectorID
        }
        guard let id else { return stream }
        let watchdog = Task { [weak self] in
            var remaining = max(1, count)
            while !Task.isCancelled {
                try? await Task.sleep(for: frameTimeout)
                guard !Task.isCancelled, let self else { return }
                let progress = self.state.withLock { state -> Int? in state.collectors[id]?.remaining }
                guard let progress else { return }
                if progress == remaining {
                    let stalled = self.state.withLock { $0.collectors.removeValue(forKey: id) }
                    stalled?.continuation.finish(throwing: CaptureError(.timeout,
                        "the camera sent no frame for \(frameTimeout); check that it is still connected"))
                    return
                }
                remaining = progress
            }
        }
        continuation.onTermination = { [weak self] _ in
            watchdog.cancel()
            _ = self?.state.withLock { $0.collectors.removeValue(forKey: id) }
        }
        return stream
    }

    /// Waits for the next frame to arrive, at most `timeout`; with `time`, for the first whose
    /// exposure ends after it (its timestamp plus its duration), at most `timeout` for each frame.
    func next(takenAfter time: ClockTime? = nil, timeout: Duration) async throws(CaptureError) -> Sample {
        do {
            for try await frame in frames(count: .max, frameTimeout: timeout) {
                guard let time, let start = frame.buffer?.presentationTime else { return frame }
                let end = start.nanoseconds + (frame.buffer?.duration?.nanoseconds ?? 0)
                if end > time.nanoseconds { return frame }
            }
        } catch {
            throw CaptureError.converting(error, context: "waiting for a frame failed")
        }
        throw CaptureError(.interrupted, "the camera stopped before sending a frame")
    }
}
