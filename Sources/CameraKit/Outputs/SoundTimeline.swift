import GStreamer
import Synchronization

/// Puts a recording's sound on its movie's timeline, as the movie output puts its frames: from the
/// first frame on, without the spans it was paused, and up to the end of the last frame. Sound
/// waits until the frames reach its time (``hold(_:at:duration:)``): frames lag the microphone
/// when the encoder is busy, and a recording that ends while frames are let go would otherwise
/// keep sound past its last frame.
///
/// The microphone's buffers are stamped on its pipeline's clock and the frames on the session's;
/// both pipelines run on the system's monotonic clock, and the difference of their running times,
/// read at the recording's start, carries one to the other.
final class SoundTimeline: Sendable {
    private let state = Mutex(State())

    private struct State {
        /// The microphone's running time less the session's.
        var offset: Int64 = 0
        /// The first frame's time on the session's clock, once it came.
        var start: ClockTime?
        /// The time paused before the latest resumption, as the frames' timeline counts it.
        var pausedSpan: UInt64 = 0
        /// Whether sound is left out now: paused, or resumed but no frame has come since.
        var isHeld = false
        /// The end of the last frame, once the movie ends: no sound after it.
        var end: UInt64?
        /// The movie time the sound has reached.
        var reached: UInt64 = 0
        /// The movie time the frames have reached: the end of the latest frame going into the movie.
        var framesReached: UInt64 = 0
        /// Sound waiting for the frames, oldest first.
        var held: [HeldSound] = []
    }

    /// A sound buffer placed on the movie's timeline.
    typealias HeldSound = (buffer: Buffer, time: ClockTime, duration: ClockTime?)

    /// How much sound may wait for frames that do not come (a stalled camera): beyond it the
    /// oldest goes into the movie all the same.
    static let longestHeld: UInt64 = 3_000_000_000

    /// Sets the difference of the two pipelines' running times, read together.
    func align(microphone: ClockTime, session: ClockTime) {
        state.withLock { $0.offset = Int64(bitPattern: microphone.nanoseconds &- session.nanoseconds) }
    }

    /// The first frame came at `start` on the session's clock: sound from then on is the movie's.
    func started(at start: ClockTime) {
        state.withLock { ($0.start, $0.isHeld) = (start, false) }
    }

    /// The recording pauses: sound is left out until the next frame after resuming.
    func pause() {
        state.withLock { $0.isHeld = true }
    }

    /// The first frame after a pause came; the movie leaves out `pausedSpan` of the session's time.
    func resumed(pausedSpan: UInt64) {
        state.withLock { ($0.pausedSpan, $0.isHeld) = (pausedSpan, false) }
    }

    /// The movie ends at `end`: sound after it is left out.
    func ends(at end: ClockTime) {
        state.withLock { $0.end = end.nanoseconds }
    }

    /// Whether the sound has reached the movie's end, once it has one.
    var reachedEnd: Bool { state.withLock { state in state.end.map { state.reached >= $0 } ?? false } }

    /// A frame ending at `time` goes into the movie: sound up to there may follow it.
    func framesReach(_ time: ClockTime) {
        state.withLock { $0.framesReached = max($0.framesReached, time.nanoseconds) }
    }

    /// Keeps a sound buffer placed at `time` until the frames reach it; returns, oldest first,
    /// the sound to go into the movie now.
    func hold(_ buffer: Buffer, at time: ClockTime, duration: ClockTime?) -> [HeldSound] {
        state.withLock { state in
            state.held.append((buffer, time, duration))
            let newest = time.nanoseconds
            let ready = state.held.prefix { $0.time.nanoseconds < state.framesReached || newest - $0.time.nanoseconds > Self.longestHeld }
            state.held.removeFirst(ready.count)
            return Array(ready)
        }
    }

    /// The sound still held that begins before the movie's end, once the frames have ended.
    func heldBeforeEnd() -> [HeldSound] {
        state.withLock { state in
            defer { state.held = [] }
            guard let end = state.end else { return state.held }
            return state.held.filter { $0.time.nanoseconds < end }
        }
    }

    /// The movie time of a sound buffer stamped `time` on the microphone's clock; `nil` leaves it out.
    func movieTime(ofSoundAt time: ClockTime, lasting duration: ClockTime?) -> ClockTime? {
        state.withLock { state -> ClockTime? in
            guard let start = state.start, !state.isHeld else { return nil }
            let onSession = Int64(bitPattern: time.nanoseconds) &- state.offset
            let movie = onSession - Int64(bitPattern: start.nanoseconds) - Int64(bitPattern: state.pausedSpan)
            // Sound from before the first frame, or already in the movie (heard before a pause
            // whose frames ended sooner), is left out.
            guard movie >= 0 else { return nil }
            let ending = UInt64(movie) + (duration?.nanoseconds ?? 0)
            guard ending > state.reached else { return nil }
            state.reached = ending
            if let end = state.end, UInt64(movie) >= end { return nil }
            return ClockTime(nanoseconds: UInt64(movie))
        }
    }
}
