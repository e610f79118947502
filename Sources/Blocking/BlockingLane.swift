import Dispatch

/// The one way off Swift's cooperative threads for calls that block (a state change that waits,
/// pulling a sample, pushing into a full app source): work runs in order on a serial queue of
/// its own, and the caller awaits its result without holding a cooperative thread.
///
/// ```swift
/// let lane = BlockingLane(label: "encoder")
/// let sample = await lane.run { sink.pullSample(timeout: .seconds(10)) }
/// ```
public struct BlockingLane: Sendable {
    private let queue: DispatchQueue

    /// A lane of its own; work given to one lane runs one piece at a time, in order.
    public init(label: String) {
        queue = DispatchQueue(label: "camctl.\(label)")
    }

    /// Runs `work` on the lane and returns what it returns.
    public func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Runs `work` on the lane and returns what it returns, or throws what it throws.
    public func run<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await run { Result { () throws(Failure) in try work() } }
        return try result.get()
    }

    /// Makes a value on the lane that is handed over whole to the caller, who alone uses it from
    /// then on (a library opened, with its connection), or throws what making it throws. What
    /// `work` holds is handed to the lane whole too (a delivery a server is made with).
    public func make<T, Failure: Error>(_ work: sending @escaping () throws(Failure) -> sending T) async throws(Failure) -> sending T {
        let handed = Handed(work: work)
        let made: Made<T, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(Failure) {
                    continuation.resume(returning: .made(try handed.work()))
                } catch {
                    continuation.resume(returning: .failed(error))
                }
            }
        }
        switch consume made {
        case .made(let value): return value
        case .failed(let error): throw error
        }
    }

    /// Work handed to the lane.
    ///
    /// `@unchecked Sendable`: the work was `sending`, so nothing else holds it or what it captured;
    /// it is called once, on the lane.
    private struct Handed<T, Failure: Error>: @unchecked Sendable {
        let work: () throws(Failure) -> sending T
    }

    /// A value made, or why it could not be.
    private enum Made<T, Failure: Error> {
        case made(T)
        case failed(Failure)
    }
}
