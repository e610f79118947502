import GStreamer
import Synchronization

/// A registration for a live output's frames; ``cancel()`` (or dropping it) stops them.
public final class LiveReceiver: Sendable {
    private let end: @Sendable () -> Void

    init(end: @escaping @Sendable () -> Void) {
        self.end = end
    }

    public func cancel() {
        end()
    }

    deinit {
        cancel()
    }
}

/// Who receives a live output's frames, and the valve that shuts the output's branch while no
/// one does, so nothing is encoded for no one.
final class LiveReceivers<Frame: Sendable>: Sendable {
    private struct State {
        var receivers: [Int: @Sendable (Frame) -> Void] = [:]
        var nextID = 0
        var valve: Element?
        /// Whether the branch stays shut whoever receives (its frames come another way).
        var branchUnused = false

        var valveOpens: Bool { !receivers.isEmpty && !branchUnused }
    }

    private let state = Mutex(State())

    /// Calls `receive` with every frame from now on, until the registration is cancelled or dropped.
    func add(_ receive: @escaping @Sendable (Frame) -> Void) -> LiveReceiver {
        let (id, valve) = state.withLock { state in
            state.nextID += 1
            state.receivers[state.nextID] = receive
            return (state.nextID, state.receivers.count == 1 && state.valveOpens ? state.valve : nil)
        }
        try? valve?.setProperty("drop", false)
        return LiveReceiver { [self] in remove(id) }
    }

    private func remove(_ id: Int) {
        let valve = state.withLock { state in
            state.receivers.removeValue(forKey: id) != nil && state.receivers.isEmpty && !state.branchUnused ? state.valve : nil
        }
        try? valve?.setProperty("drop", true)
    }

    /// How many receive now.
    var count: Int { state.withLock { $0.receivers.count } }

    /// The receivers now, or `nil` when there are none.
    var current: [@Sendable (Frame) -> Void]? {
        state.withLock { $0.receivers.isEmpty ? nil : Array($0.receivers.values) }
    }

    /// The branch's valve (`nil` as the session stops), opened or shut as the receivers say.
    func control(_ valve: Element?) {
        apply { $0.valve = valve }
    }

    /// Keeps the branch shut whoever receives (`true`: its frames come another way), or lets the
    /// receivers open it.
    func keepBranchShut(_ shut: Bool) {
        apply { $0.branchUnused = shut }
    }

    private func apply(_ change: (inout State) -> Void) {
        let (valve, opens) = state.withLock { state in
            change(&state)
            return (state.valve, state.valveOpens)
        }
        try? valve?.setProperty("drop", !opens)
    }
}
