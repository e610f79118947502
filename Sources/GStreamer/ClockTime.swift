internal import CGStreamer

/// A point or span on a GStreamer clock, in nanoseconds.
public struct ClockTime: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Nanoseconds.
    public let rawValue: UInt64

    /// Makes a clock time of this many nanoseconds.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Makes a clock time of this many nanoseconds.
    public init(nanoseconds: UInt64) {
        self.rawValue = nanoseconds
    }

    /// Makes a clock time from a Swift duration, clamped at zero.
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        self.rawValue = UInt64(max(0, nanoseconds))
    }

    /// Zero.
    public static let zero = ClockTime(rawValue: 0)

    /// The time in nanoseconds.
    public var nanoseconds: UInt64 { rawValue }

    /// The time in seconds.
    public var seconds: Double { Double(rawValue) / 1e9 }

    /// The time as a Swift duration.
    public var duration: Duration { .nanoseconds(Int64(clamping: rawValue)) }

    public static func < (lhs: ClockTime, rhs: ClockTime) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `h:mm:ss.nnnnnnnnn`, as GStreamer prints times.
    public var description: String {
        let ns = rawValue % 1_000_000_000
        let totalSeconds = rawValue / 1_000_000_000
        let fraction = String(ns).leftPadded(to: 9)
        let minutes = String(totalSeconds / 60 % 60).leftPadded(to: 2)
        let seconds = String(totalSeconds % 60).leftPadded(to: 2)
        return "\(totalSeconds / 3600):\(minutes):\(seconds).\(fraction)"
    }

    /// Converts GStreamer's representation, where all ones means "none".
    init?(_ raw: GstClockTime) {
        guard raw != GstClockTime.max else { return nil }
        self.rawValue = UInt64(raw)
    }

    /// A timeout for GStreamer's blocking calls.
    static func timeout(_ duration: Duration?) -> GstClockTime {
        guard let duration else { return GstClockTime.max }
        return GstClockTime(ClockTime(duration).rawValue)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
