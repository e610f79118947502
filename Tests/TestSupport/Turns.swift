/// Lets a few callers at a time run their work, the others waiting in the order they came,
/// without holding a thread.
public actor Turns {
    private let permits: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// At most `permits` callers at once.
    public init(permits: Int = 1) {
        self.permits = permits
    }

    /// Runs `work` once fewer than `permits` callers before it are still running theirs.
    public func run<T: Sendable>(_ work: @Sendable () async throws -> T) async throws -> T {
        if running < permits {
            running += 1
        } else {
            await withCheckedContinuation { waiting.append($0) }  // the permit is handed on
        }
        defer { handOn() }
        return try await work()
    }

    private func handOn() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }
}
