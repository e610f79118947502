import FoundationEssentials

/// An instant as the records write it.
public enum WireTime {
    /// ISO 8601 in UTC, with milliseconds (`2026-12-01T17:06:12.315Z`).
    public static func iso(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .colon)
            .dateTimeSeparator(.standard).timeSeparator(.colon))
    }

    /// Whole microseconds since 1970.
    public static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1e6).rounded())
    }
}
