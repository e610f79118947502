internal import CGStreamer

/// The state of an element or pipeline.
public enum State: Int, Sendable, Comparable, CustomStringConvertible {
    /// No state change is pending.
    case voidPending = 0
    /// Nothing allocated: the initial and final state.
    case null = 1
    /// Resources allocated (a device opened), no data flowing.
    case ready = 2
    /// Data flows up to the sinks, which hold the first buffer (preroll).
    case paused = 3
    /// Data flows and the clock runs.
    case playing = 4

    init(_ raw: GstState) {
        self = State(rawValue: Int(raw.rawValue)) ?? .voidPending
    }

    var raw: GstState { GstState(rawValue: UInt32(rawValue)) }

    public static func < (lhs: State, rhs: State) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `NULL`, `READY`, `PAUSED`, `PLAYING`, as GStreamer names them.
    public var description: String {
        borrowedString(gst_element_state_get_name(raw)) ?? "UNKNOWN"
    }
}
