import Synchronization

/// The state changes this process has asked GStreamer for and that have not returned yet, so a
/// hang (an element stuck in a device call while it stops or starts) can be told from a slow start.
///
/// Only the change itself is watched, not the wait for an asynchronous one to complete, which a
/// time-out bounds: a change that does not return in seconds will not return at all.
public enum StateChangeWatch {
    private static let underway = Mutex<(next: Int, started: [Int: ContinuousClock.Instant])>((0, [:]))

    /// How long the oldest change now underway has been waiting for GStreamer to return, or nil when none is.
    public static var longestUnderway: Duration? {
        let now = ContinuousClock.now
        return underway.withLock { $0.started.values.min() }.map { now - $0 }
    }

    /// Runs `change`, counted as underway until it returns.
    static func watching<T>(_ change: () -> T) -> T {
        let ticket = underway.withLock { state in
            state.next += 1
            state.started[state.next] = .now
            return state.next
        }
        defer { _ = underway.withLock { $0.started.removeValue(forKey: ticket) } }
        return change()
    }
}
