import Synchronization

/// Hands values to any number of async streams; each subscriber gets every value from its
/// subscription on, keeping at most a bounded number unread. Safe from any thread, never blocks.
public final class Broadcast<Element: Sendable>: Sendable {
    /// The subscribers' continuations by number; `nil` once finished.
    private let subscribers = Mutex<[Int: AsyncStream<Element>.Continuation]?>([:])
    private let nextID = Atomic<Int>(0)
    /// Those told every value as it is sent, in the order they came; `nil` once finished.
    private let observers = Mutex<[@Sendable (Element) -> Void]?>([])

    public init() {}

    /// A new stream of the values sent from now on; one that ends at once when the broadcast
    /// has finished.
    public func subscribe(bufferingNewest limit: Int = 256) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(limit))
        let id = nextID.add(1, ordering: .relaxed).newValue
        let isOpen = subscribers.withLock { subscribers in
            guard subscribers != nil else { return false }
            subscribers?[id] = continuation
            return true
        }
        guard isOpen else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0?.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `observe` with every value sent from now on, on the sender's thread before ``send(_:)``
    /// returns, so it sees them in the order they were sent; until the broadcast finishes.
    /// `observe` must not block, nor send to this broadcast.
    public func observe(_ observe: @escaping @Sendable (Element) -> Void) {
        observers.withLock { $0?.append(observe) }
    }

    /// Sends a value to every observer and subscriber; returns how many subscribers dropped an unread one.
    ///
    /// Called for every frame, so it yields under the lock rather than copying the subscribers
    /// out: yielding never blocks and never calls back into this object.
    @discardableResult
    public func send(_ value: Element) -> Int {
        observers.withLock { observers in observers?.forEach { $0(value) } }
        return subscribers.withLock { subscribers in
            var dropped = 0
            for continuation in subscribers?.values ?? [:].values {
                if case .dropped = continuation.yield(value) { dropped += 1 }
            }
            return dropped
        }
    }

    /// Ends every subscriber's stream once it has read what was sent; later subscribers get
    /// streams that end at once.
    public func finish() {
        observers.withLock { $0 = nil }
        // Finished outside the lock: a stream's end calls back to remove its subscriber.
        let ended = subscribers.withLock { subscribers in
            defer { subscribers = nil }
            return subscribers.map { Array($0.values) } ?? []
        }
        for continuation in ended { continuation.finish() }
    }
}
