import Synchronization

/// Hands values to any number of async streams; each subscriber gets every value from its
/// subscription on, keeping at most a bounded number unread. Safe from any thread, never blocks.
final class Broadcast<Element: Sendable>: Sendable {
    private let subscribers = Mutex<[Int: AsyncStream<Element>.Continuation]>([:])
    private let nextID = Atomic<Int>(0)

    /// A new stream of the values sent from now on.
    func subscribe(bufferingNewest limit: Int = 256) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        let id = nextID.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends a value to every subscriber; returns how many subscribers dropped an unread one.
    ///
    /// Called for every frame, so it yields under the lock rather than copying the subscribers
    /// out: yielding never blocks and never calls back into this object.
    @discardableResult
    func send(_ value: Element) -> Int {
        subscribers.withLock { subscribers in
            var dropped = 0
            for continuation in subscribers.values {
                if case .dropped = continuation.yield(value) { dropped += 1 }
            }
            return dropped
        }
    }
}
