import Synchronization

/// A flow a front end can start: what it shares with others, and whether a second one waits
/// for its turn or is refused at once.
///
/// Flows that hold the stage (the preview and the guest in front of it for a while) are refused
/// while another holds it; flows that hold the camera or the settings for a moment wait their
/// turn, first come first served.
public enum Flow: String, Sendable, CaseIterable {
    /// A photo booth: countdowns, shots, their composition, a review or the result shown.
    case booth
    /// A capture run: photos after countdowns, at intervals, or each reviewed.
    case capture
    /// Pictures held shown for a verdict.
    case review
    /// A countdown asked for on its own.
    case countdown
    /// A picture shown over the preview for a time (the result, the shots in their places).
    case showing
    /// A photo of the camera's frame (at once, or nearest an instant).
    case photo
    /// Photos of consecutive frames.
    case burst
    /// Another camera switched to.
    case cameraSwitch
    /// The picture's filters, colour, zoom or words changed.
    case imageChange
    /// A movie started or stopped.
    case movie
    /// A served booth's settings changed (and applied to the picture).
    case settingsChange

    /// What a flow holds while it runs.
    public enum Resource: Sendable {
        /// The preview and the guest before it, for seconds or minutes: a second flow is refused.
        case stage
        /// The camera, for a moment: a second flow waits.
        case camera
        /// The served booth's settings, while they are checked, applied and kept: a second change waits.
        case settings
    }

    public var resource: Resource {
        switch self {
        case .booth, .capture, .review, .countdown, .showing: .stage
        case .photo, .burst, .cameraSwitch, .imageChange, .movie: .camera
        case .settingsChange: .settings
        }
    }

    /// Whether a flow that finds its resource held waits for its turn (`false`: it is refused).
    public var waitsForTurn: Bool { resource != .stage }

    /// What a front end tells whoever was refused because this flow holds the stage.
    public var busySentence: String {
        switch self {
        case .booth: "a booth is running; wait for it to end, or end it"
        case .capture: "photos are being taken with countdowns or reviews; wait for them to end, or end them"
        case .review: "a picture is waiting for its review; keep or discard it first"
        case .countdown: "a countdown is running; wait for it to end, or cut it short"
        case .showing: "a picture is being shown; wait for it to end, or cut it short"
        default: "the camera is busy; try again"
        }
    }
}

/// Admits the operator's flows one at a time for each ``Flow/Resource``: the one mechanism by
/// which flows that share the stage, the camera or the settings never interleave. A flow holds
/// its resource from admission until it leaves, across every suspension point between, so no
/// flow acts on what it checked while another changed it.
///
/// Safe to use from any task: its state is behind a lock, and no lock is held while a flow waits.
public final class FlowGate: Sendable {
    /// A flow admitted: what it must hand back with ``leave(_:)``.
    public struct Pass: Sendable {
        public let flow: Flow
    }

    /// How a flow that asked is answered.
    private enum Admission {
        case admitted
        case refused(by: Flow)
        /// Its task was cancelled (its asker went away) before its turn came.
        case cancelled
    }

    private struct Waiter {
        let id: Int
        let flow: Flow
        let turn: CheckedContinuation<Admission, Never>
    }

    private struct Holding {
        var holder: Flow
        var waiting: [Waiter] = []
    }

    private let holdings = Mutex<(byResource: [Flow.Resource: Holding], lastWaiter: Int)>(([:], 0))

    public init() {}

    /// Admits `flow`: at once when its resource is free; after the flows before it when it waits
    /// for turns. A flow whose task is cancelled while it waits leaves the queue and never runs.
    ///
    /// - Throws: ``OperatorError/busy(_:)`` naming the flow on the stage, when `flow` needs the
    ///   stage and another holds it; ``OperatorError/cancelled`` when its task was cancelled first.
    public func enter(_ flow: Flow) async throws(OperatorError) -> Pass {
        let resource = flow.resource
        let id = holdings.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        let admission = await withTaskCancellationHandler {
            // One decision under the lock: admitted, refused (the holder), or in the queue, whose
            // turn comes by ``leave(_:)``.
            await withCheckedContinuation { (turn: CheckedContinuation<Admission, Never>) in
                let decided = holdings.withLock { state -> Admission? in
                    guard let holding = state.byResource[resource] else {
                        state.byResource[resource] = Holding(holder: flow)
                        return .admitted
                    }
                    guard flow.waitsForTurn else { return .refused(by: holding.holder) }
                    guard !Task.isCancelled else { return .cancelled }
                    state.byResource[resource]?.waiting.append(Waiter(id: id, flow: flow, turn: turn))
                    return nil
                }
                if let decided { turn.resume(returning: decided) }
            }
        } onCancel: {
            let waiter = holdings.withLock { state -> Waiter? in
                guard let index = state.byResource[resource]?.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.byResource[resource]?.waiting.remove(at: index)
            }
            waiter?.turn.resume(returning: .cancelled)
        }
        switch admission {
        case .admitted: return Pass(flow: flow)
        case .refused(let holder): throw .busy(holder)
        case .cancelled: throw .cancelled
        }
    }

    /// Hands `pass`'s resource to the first flow waiting for it, or frees it.
    public func leave(_ pass: Pass) {
        let next = holdings.withLock { state -> Waiter? in
            let resource = pass.flow.resource
            guard var holding = state.byResource[resource] else { return nil }
            guard !holding.waiting.isEmpty else {
                state.byResource[resource] = nil
                return nil
            }
            let next = holding.waiting.removeFirst()
            holding.holder = next.flow
            state.byResource[resource] = holding
            return next
        }
        next?.turn.resume(returning: .admitted)
    }

    /// Runs `body` as `flow`, admitted as ``enter(_:)`` admits it, and leaves after it.
    public func admitting<T>(_ flow: Flow, isolation: isolated (any Actor)? = #isolation,
                             _ body: () async throws(OperatorError) -> T) async throws(OperatorError) -> T {
        let pass = try await enter(flow)
        defer { leave(pass) }
        return try await body()
    }

    /// How many flows wait for their turn at `resource`.
    public func waitingCount(for resource: Flow.Resource) -> Int {
        holdings.withLock { $0.byResource[resource]?.waiting.count ?? 0 }
    }

    /// The flow holding `resource` now, if any.
    public func holder(of resource: Flow.Resource) -> Flow? {
        holdings.withLock { $0.byResource[resource]?.holder }
    }
}
