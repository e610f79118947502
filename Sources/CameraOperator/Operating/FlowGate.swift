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

    private struct Holding {
        var holder: Flow
        var waiting: [(flow: Flow, turn: CheckedContinuation<Flow?, Never>)] = []
    }

    private let holdings = Mutex<[Flow.Resource: Holding]>([:])

    public init() {}

    /// Admits `flow`: at once when its resource is free; after the flows before it when it waits
    /// for turns.
    ///
    /// - Throws: ``OperatorError/busy(_:)`` naming the flow on the stage, when `flow` needs the
    ///   stage and another holds it.
    public func enter(_ flow: Flow) async throws(OperatorError) -> Pass {
        let resource = flow.resource
        // One decision under the lock: admitted, refused (the holder), or in the queue, whose
        // turn comes by ``leave(_:)``.
        let refusedBy = await withCheckedContinuation { (turn: CheckedContinuation<Flow?, Never>) in
            let decided = holdings.withLock { holdings -> Flow?? in
                guard let holding = holdings[resource] else {
                    holdings[resource] = Holding(holder: flow)
                    return .some(nil)
                }
                guard flow.waitsForTurn else { return .some(holding.holder) }
                holdings[resource]?.waiting.append((flow, turn))
                return .none
            }
            if case .some(let refusedBy) = decided { turn.resume(returning: refusedBy) }
        }
        if let refusedBy { throw .busy(refusedBy) }
        return Pass(flow: flow)
    }

    /// Hands `pass`'s resource to the first flow waiting for it, or frees it.
    public func leave(_ pass: Pass) {
        let next = holdings.withLock { holdings -> CheckedContinuation<Flow?, Never>? in
            let resource = pass.flow.resource
            guard var holding = holdings[resource] else { return nil }
            guard !holding.waiting.isEmpty else {
                holdings[resource] = nil
                return nil
            }
            let (flow, turn) = holding.waiting.removeFirst()
            holding.holder = flow
            holdings[resource] = holding
            return turn
        }
        next?.resume(returning: nil)
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
        holdings.withLock { $0[resource]?.waiting.count ?? 0 }
    }

    /// The flow holding `resource` now, if any.
    public func holder(of resource: Flow.Resource) -> Flow? {
        holdings.withLock { $0[resource]?.holder }
    }
}
