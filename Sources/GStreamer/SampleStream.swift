import Synchronization

/// The samples of an ``AppSink`` as an async sequence, bounded, with lost samples counted.
public struct SampleStream: AsyncSequence, Sendable {
    public typealias Element = Sample

    /// What to keep when the consumer falls behind.
    public enum BufferingPolicy: Sendable, Equatable {
        /// Keep the newest `n` samples, dropping older unread ones: right for live frames.
        case keepNewest(Int)
        /// Keep the oldest `n` unread samples, dropping new ones until the consumer catches up.
        case keepOldest(Int)
    }

    let samples: AsyncStream<Sample>
    let receiver: Receiver

    /// Samples dropped because the consumer was behind.
    public var droppedCount: Int { receiver.dropped.load(ordering: .relaxed) }

    /// Samples that reached the stream, whether consumed or dropped later.
    public var deliveredCount: Int { receiver.delivered.load(ordering: .relaxed) }

    public func makeAsyncIterator() -> AsyncStream<Sample>.Iterator {
        samples.makeAsyncIterator()
    }

    /// Makes the stream and the receiver that feeds it.
    static func make(_ policy: BufferingPolicy) -> SampleStream {
        let (samples, continuation) = switch policy {
        case .keepNewest(let limit): AsyncStream.makeStream(of: Sample.self, bufferingPolicy: .bufferingNewest(Swift.max(1, limit)))
        case .keepOldest(let limit): AsyncStream.makeStream(of: Sample.self, bufferingPolicy: .bufferingOldest(Swift.max(1, limit)))
        }
        return SampleStream(samples: samples, receiver: Receiver(continuation))
    }

    /// The app sink's side: called on the streaming thread, never blocks.
    final class Receiver: Sendable {
        let dropped = Atomic<Int>(0)
        let delivered = Atomic<Int>(0)
        private let continuation: AsyncStream<Sample>.Continuation

        init(_ continuation: AsyncStream<Sample>.Continuation) {
            self.continuation = continuation
        }

        func deliver(_ sample: Sample) {
            delivered.add(1, ordering: .relaxed)
            if case .dropped = continuation.yield(sample) {
                dropped.add(1, ordering: .relaxed)
            }
        }

        func finish() {
            continuation.finish()
        }
    }
}
