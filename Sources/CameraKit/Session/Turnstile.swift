import Synchronization

/// Lets one caller at a time through, the others waiting in the order they came, without holding
/// a thread: for work of several awaits that must not interleave with another's (a DSLR's shot:
/// fire, hear of its files, download them).
final class Turnstile: Sendable {
    private let state = Mutex<(isHeld: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    /// Runs `work` once every caller before it is through.
    func pass<T, Failure: Error>(_ work: () async throws(Failure) -> T) async throws(Failure) -> T {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                guard state.isHeld else {
                    state.isHeld = true
                    return true
                }
                state.waiting.append(turn)
                return false
            }
            if now { turn.resume() }
        }
        defer {
            // The turn is handed to the next in line, or left free.
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard !state.waiting.isEmpty else {
                    state.isHeld = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await work()
    }
}
