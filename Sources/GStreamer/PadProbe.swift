internal import CGStreamer
import Synchronization

/// A callback on a pad that sees, drops or holds back the data passing through it.
///
/// The probe stays until ``remove()`` is called or its handler returns ``Result/remove``.
public final class PadProbe: @unchecked Sendable {
    // @unchecked Sendable: both stored properties are immutable and GStreamer locks the pad.
    private let pad: Pad
    private let id: gulong

    /// What a probe sees.
    public struct Kind: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Buffers flowing downstream.
        public static let buffer = Kind(rawValue: GST_PAD_PROBE_TYPE_BUFFER.rawValue)
        /// Events flowing downstream (caps, segment, end of stream…).
        public static let downstreamEvent = Kind(rawValue: GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM.rawValue)
        /// Hold the data flow while the probe's handler returns ``Result/ok``.
        public static let blocking = Kind(rawValue: GST_PAD_PROBE_TYPE_BLOCK.rawValue)
        /// Called once when the pad is idle (no data passing), for safe relinking.
        public static let idle = Kind(rawValue: GST_PAD_PROBE_TYPE_IDLE.rawValue)
        /// Block buffers and downstream events: the usual way to stop a branch.
        public static let blockDownstream: Kind = [.blocking, .buffer, .downstreamEvent]
    }

    /// What a probe's handler decides.
    public enum Result: Sendable {
        /// Let the data pass; a blocking probe keeps blocking.
        case ok
        /// Let this item pass, even through a blocking probe.
        case pass
        /// Throw the data away.
        case drop
        /// Let the data pass and remove the probe.
        case remove
    }

    /// What a probe's handler is called with.
    public struct Info: Sendable {
        /// The buffer passing, for buffer probes.
        public let buffer: Buffer?
        /// The event passing, by name (`eos`, `caps`, `segment`), for event probes.
        public let eventName: String?
    }

    init(pad: Pad, id: gulong) {
        self.pad = pad
        self.id = id
    }

    /// Removes the probe; a blocked pad resumes.
    public func remove() {
        gst_pad_remove_probe(pad.raw, id)
    }
}

extension Pad {
    /// Adds a probe whose handler runs on the streaming thread for each item of the given kinds.
    ///
    /// The handler must return quickly and must not change pipeline states.
    @discardableResult
    public func addProbe(_ kind: PadProbe.Kind, _ handler: @escaping @Sendable (PadProbe.Info) -> PadProbe.Result) -> PadProbe {
        let id = gst_pad_add_probe(raw, GstPadProbeType(rawValue: kind.rawValue), { _, info, userData in
            let handler = CallbackBox<Handler>.value(userData)
            let type = info!.pointee.type.rawValue
            let carriesBuffer = type & GST_PAD_PROBE_TYPE_BUFFER.rawValue != 0
            let carriesEvent = type & GST_PAD_PROBE_TYPE_EVENT_BOTH.rawValue != 0
            let buffer = carriesBuffer ? gst_pad_probe_info_get_buffer(info).map { Buffer(retaining: $0) } : nil
            let eventName = carriesEvent ? gst_pad_probe_info_get_event(info).flatMap {
                borrowedString(gst_event_type_get_name($0.pointee.type))
            } : nil
            switch handler(PadProbe.Info(buffer: buffer, eventName: eventName)) {
            case .ok: return GST_PAD_PROBE_OK
            case .pass: return GST_PAD_PROBE_PASS
            case .drop: return GST_PAD_PROBE_DROP
            case .remove: return GST_PAD_PROBE_REMOVE
            }
        }, CallbackBox<Handler>.retained(handler), releaseBox)
        return PadProbe(pad: self, id: id)
    }

    private typealias Handler = @Sendable (PadProbe.Info) -> PadProbe.Result
}

extension Pad {
    /// Blocks the data flow at this pad and returns once it is held (or after `timeout`, when no
    /// data comes), so the pad can be unlinked safely. Remove the returned probe to let data pass.
    public func block(waitingAtMost timeout: Duration) async -> PadProbe {
        await hold(.blockDownstream, waitingAtMost: timeout)
    }

    /// Holds the data flow at this pad as soon as nothing is passing it (at once when it is idle,
    /// else when the data passing now has gone on), and returns once it is held (or after
    /// `timeout`), so a branch can be unlinked without waiting for the next frame. Remove the
    /// returned probe to let data pass.
    public func holdWhenIdle(waitingAtMost timeout: Duration) async -> PadProbe {
        await hold(.idle, waitingAtMost: timeout)
    }

    /// A blocking probe of `kind`, returned once its handler first ran (the flow held) or after `timeout`.
    private func hold(_ kind: PadProbe.Kind, waitingAtMost timeout: Duration) async -> PadProbe {
        let signal = OneShot<Void>()
        let probe = addProbe(kind) { _ in
            signal.fire(())
            return .ok
        }
        _ = await signal.wait(atMost: timeout)
        return probe
    }

    /// The timestamp of the `count`th buffer to pass the pad from now, or `nil` when it does not
    /// come within `timeout` (or has none).
    public func presentationTime(ofBuffer count: Int, waitingAtMost timeout: Duration) async -> ClockTime? {
        let signal = OneShot<ClockTime?>()
        let seen = Atomic<Int>(0)
        addProbe(.buffer) { info in
            guard seen.add(1, ordering: .relaxed).newValue >= count else { return .ok }
            signal.fire(info.buffer?.presentationTime)
            return .remove
        }
        return await signal.wait(atMost: timeout) ?? nil
    }
}

/// Resumes one waiter once, with a value from the streaming thread, or with `nil` from a timer,
/// whichever comes first.
private final class OneShot<Value: Sendable>: Sendable {
    private let state = Mutex<(fired: Bool, value: Value?, waiter: CheckedContinuation<Value?, Never>?)>((false, nil, nil))

    func fire(_ value: Value?) {
        let waiter = state.withLock { state -> CheckedContinuation<Value?, Never>? in
            guard !state.fired else { return nil }
            defer { state = (true, value, nil) }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    func wait(atMost timeout: Duration) async -> Value? {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.fire(nil)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            let fired = state.withLock { state -> (Bool, Value?) in
                if !state.fired { state.waiter = continuation }
                return (state.fired, state.value)
            }
            if fired.0 { continuation.resume(returning: fired.1) }
        }
    }
}
