import Synchronization

/// Lets a few callers at a time through (one unless told more), the others waiting in the order
/// they came, without holding a thread: for work of several awaits that must not interleave with
/// another's (a DSLR's shot: fire, hear of its files, download them), or that many must not do at
/// once (downloads from a fleet's nodes).
///
/// ```swift
/// let shots = Turnstile()
/// let photo = try await shots.pass { try await camera.takePhoto() }
/// ```
public final class Turnstile: Sendable {
    private let permits: Int
    private let state = Mutex<(through: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))

    /// At most `permits` callers through at once.
    public init(permits: Int = 1) {
        self.permits = max(1, permits)
    }

    /// Runs `work` once fewer than `permits` callers before it are still running theirs.
    public func pass<T, Failure: Error>(_ work: () async throws(Failure) -> T) async throws(Failure) -> T {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.through >= permits else {
                    state.through += 1
                    return true
                }
                state.waiting.append(turn)
                return false
            }
            if now { turn.resume() }
        }
        defer {
            // The permit is handed to the next in line, or given back.
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.through -= 1
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await work()
    }
}
