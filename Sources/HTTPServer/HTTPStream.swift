import Dispatch
import Synchronization

/// A streamed response's body: chunks written by a producer (a camera's frames, events) and read
/// by the connection's own thread as the client takes them. Writing never waits: when the client
/// is slower than the producer, the oldest chunks waiting give way (it drops its own frames), so
/// one slow client never holds the producer or the other clients back.
public final class HTTPStream: Sendable {
    private struct State {
        var waiting: [[UInt8]] = []
        /// The chunk being sent, and how much of it has been.
        var current: [UInt8] = []
        var sent = 0
        var isFinished = false
        var isClosed = false
        var dropped = 0
    }

    private let state = Mutex(State())
    private let arrived = DispatchSemaphore(value: 0)
    private let limit: Int

    /// A stream keeping at most `limit` chunks waiting for a slow client.
    public init(keeping limit: Int = 1) {
        self.limit = max(1, limit)
    }

    /// Queues a chunk (an empty one is not sent); `false` once the client has gone or the stream
    /// is finished.
    @discardableResult
    public func send(_ chunk: [UInt8]) -> Bool {
        let open = state.withLock { state in
            guard !state.isClosed, !state.isFinished else { return false }
            guard !chunk.isEmpty else { return true }
            state.waiting.append(chunk)
            if state.waiting.count > limit {
                state.waiting.removeFirst(state.waiting.count - limit)
                state.dropped += 1
            }
            return true
        }
        if open { arrived.signal() }
        return open
    }

    /// Ends the stream once what is queued has been sent.
    public func finish() {
        state.withLock { $0.isFinished = true }
        arrived.signal()
    }

    /// Whether the client still reads and the stream is not finished.
    public var isOpen: Bool { state.withLock { !$0.isClosed && !$0.isFinished } }

    /// Chunks that gave way to newer ones because the client was slow.
    public var droppedCount: Int { state.withLock { $0.dropped } }

    /// The client has gone (or the server stops): nothing more is sent.
    func close() {
        state.withLock { $0.isClosed = true }
        arrived.signal()
    }

    /// Copies up to `capacity` bytes of the next chunk to `buffer`, waiting for one; `nil` when
    /// the stream has ended. Called on the connection's thread only.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let outcome: Int?? = state.withLock { state in
                if state.isClosed { return .some(nil) }
                if state.sent == state.current.count {
                    guard !state.waiting.isEmpty else { return state.isFinished ? .some(nil) : .none }
                    state.current = state.waiting.removeFirst()
                    state.sent = 0
                }
                let count = min(buffer.count, state.current.count - state.sent)
                state.current.withUnsafeBytes { chunk in
                    buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: chunk[state.sent..<(state.sent + count)]))
                }
                state.sent += count
                return .some(count)
            }
            if let outcome { return outcome }
            arrived.wait()
        }
    }
}
