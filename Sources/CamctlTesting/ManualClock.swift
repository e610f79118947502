import Synchronization

/// A clock whose time moves only when a test advances it: what waits on it (a countdown, a
/// review's time-out) wakes exactly when the test says its time has come, however slow the
/// machine is.
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock was made.
        public let offset: Duration

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        /// Waiters for a number of sleepers.
        var watchers: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Registered under the lock, or ended at once: cancelled before, or already due.
                let outcome = state.withLock { state -> Result<[CheckedContinuation<Void, Never>], CancellationError>? in
                    guard !Task.isCancelled else { return .failure(CancellationError()) }
                    guard deadline > state.now else { return nil }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return .success(Self.satisfiedWatchers(&state))
                }
                switch outcome {
                case nil: continuation.resume()
                case .failure(let cancelled)?: continuation.resume(throwing: cancelled)
                case .success(let watchers)?: watchers.forEach { $0.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time on by `duration`, waking every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            due.keys.forEach { state.sleepers[$0] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        woken.forEach { $0.continuation.resume() }
    }

    /// How many tasks sleep on the clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Waits until at least `count` tasks sleep on the clock (the moment to advance it), or until
    /// the waiting task is cancelled.
    public func sleepers(atLeast count: Int = 1) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    guard state.sleepers.count < count, !Task.isCancelled else { return true }
                    state.watchers.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.watchers.remove(at: index).continuation
            }
            watcher?.resume()
        }
    }

    private static func satisfiedWatchers(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.watchers.filter { $0.count <= count }.map(\.continuation)
        state.watchers.removeAll { $0.count <= count }
        return ready
    }
}
