import Synchronization

/// An answer that the first of several racing tasks gives (an X server's window, or a deadline's
/// `nil`), and one task awaits; later answers are refused, so their giver can undo its work.
public final class OnceAnswer<Value: Sendable>: Sendable {
    private let state = Mutex<(answer: Value?, given: Bool, waiter: CheckedContinuation<Value, Never>?)>((nil, false, nil))

    public init() {}

    /// Gives the answer; `false` when one was given before (this one is dropped).
    @discardableResult
    public func give(_ value: Value) -> Bool {
        let (taken, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Value, Never>?) in
            guard !state.given else { return (false, nil) }
            state.given = true
            defer { state.waiter = nil }
            if state.waiter == nil { state.answer = value }
            return (true, state.waiter)
        }
        waiter?.resume(returning: value)
        return taken
    }

    /// The answer, once given.
    public var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let given = state.withLock { state -> Value?? in
                    guard state.given else {
                        state.waiter = continuation
                        return .none
                    }
                    return .some(state.answer)
                }
                if case .some(let answer) = given, let answer { continuation.resume(returning: answer) }
            }
        }
    }
}
