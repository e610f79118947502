import FoundationEssentials
import Glibc

/// A moment as a wall clock shows it: the civil date and time at an offset from UTC, by default
/// the system's local time at that moment (the `TZ` variable or `/etc/localtime`, daylight
/// saving included).
public struct WallClockTime: Sendable, Equatable {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    /// Thousandths of the second, 0 to 999.
    public let millisecond: Int
    /// Seconds east of UTC.
    public let utcOffset: Int

    /// `date` on the clock `utcOffset` seconds east of UTC, or on the local clock when `nil`.
    public init(_ date: Date, utcOffset: Int? = nil) {
        let since1970 = date.timeIntervalSince1970
        let whole = since1970.rounded(.down)
        var seconds = time_t(whole)
        var parts = tm()
        if let utcOffset {
            seconds += time_t(utcOffset)
            gmtime_r(&seconds, &parts)
            self.utcOffset = utcOffset
        } else {
            localtime_r(&seconds, &parts)
            self.utcOffset = Int(parts.tm_gmtoff)
        }
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
        millisecond = min(999, Int(((since1970 - whole) * 1000).rounded(.down)))
    }

    /// The date and time as `pattern` lays them out: `yyyy` `MM` `dd` `HH` `mm` `ss` `SSS` are
    /// replaced by the zero-padded year, month, day, hour, minute, second and millisecond, and
    /// every other character is kept.
    public func formatted(_ pattern: String) -> String {
        var text = pattern
        for (field, value, width) in [("yyyy", year, 4), ("SSS", millisecond, 3), ("MM", month, 2), ("dd", day, 2),
                                      ("HH", hour, 2), ("mm", minute, 2), ("ss", second, 2)] {
            text = text.replacing(field, with: Self.padded(value, width))
        }
        return text
    }

    /// The UTC offset as `+HH:MM` or `-HH:MM`.
    public var offsetText: String {
        (utcOffset < 0 ? "-" : "+") + Self.padded(abs(utcOffset) / 3600, 2) + ":" + Self.padded(abs(utcOffset) / 60 % 60, 2)
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
