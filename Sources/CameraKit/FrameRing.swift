import GStreamer
import Synchronization

/// The last few full-resolution frames of the still branch, kept by reference (not copied), so a
/// capture can take the frame that was on screen at the request: zero shutter lag.
///
/// Fed from the streaming thread; never blocks it.
final class FrameRing: Sendable {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<Sample, any Error>
    }

    private struct State {
        var frames: [Sample] = []
        var waiters: [Waiter] = []
        var nextWaiterID = 0
        var closedReason: CaptureError? = CaptureError(.notRunning, "the session is not running; start it before capturing")
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = 2) {
        self.capacity = capacity
    }

    /// Accepts frames from now on.
    func open() {
        state.withLock { state in
            state.closedReason = nil
            state.frames.removeAll()
        }
    }

    /// Stops accepting frames, forgets those held, and fails everyone waiting with `reason`.
    func close(_ reason: CaptureError) {
        let waiters = state.withLock { state in
            state.closedReason = reason
            state.frames.removeAll()
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: reason) }
    }

    /// Adds the newest frame; called on the streaming thread.
    func append(_ sample: Sample) {
        let waiters = state.withLock { state -> [Waiter] in
            guard state.closedReason == nil else { return [] }
            state.frames.append(sample)
            if state.frames.count > capacity { state.frames.removeFirst() }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: sample) }
    }

    /// The newest frame, or `nil` before the first.
    func latest() throws(CaptureError) -> Sample? {
        try state.withLock { state throws(CaptureError) in
            if let reason = state.closedReason { throw reason }
            return state.frames.last
        }
    }

    /// Waits for the next frame to arrive, at most `timeout`.
    func next(timeout: Duration) async throws(CaptureError) -> Sample {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.fail(id, CaptureError(.timeout, "the camera sent no frame for \(timeout); check that it is still connected"))
        }
        defer { timer.cancel() }
        do {
            return try await withCheckedThrowingContinuation { continuation in
                state.withLock { state in
                    if let reason = state.closedReason {
                        continuation.resume(throwing: reason)
                    } else {
                        state.waiters.append(Waiter(id: id, continuation: continuation))
                    }
                }
            }
        } catch let error as CaptureError {
            throw error
        } catch {
            throw CaptureError(.pipeline, "waiting for a frame failed: \(error)")
        }
    }

    private func fail(_ id: Int, _ error: CaptureError) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }
}
