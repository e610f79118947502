/// How a review runs: how long it waits for an answer, what decides when none comes, and the
/// hint it shows at the foot of the preview. Every front end's review starts from these defaults.
public struct ReviewPlan: Sendable, Equatable {
    /// How long a review waits for an answer unless told otherwise: half a minute.
    public static let defaultTimeout = 30.0

    /// Seconds to wait for ``Action/decide(_:)``; `nil` waits for ever.
    public var timeout: Double?
    /// What happens to the pictures when no answer came in time.
    public var unanswered: Verdict
    /// The words at the foot of the preview while it waits (how to answer), or `nil` for none.
    public var hint: String?

    public init(timeout: Double? = ReviewPlan.defaultTimeout, unanswered: Verdict = .keep, hint: String? = nil) {
        (self.timeout, self.unanswered, self.hint) = (timeout, unanswered, hint)
    }

    /// A timeout as front ends take it: `nil` for the default, 0 (or less) for none (for ever).
    public static func timeout(given seconds: Double?) -> Double? {
        guard let seconds else { return defaultTimeout }
        return seconds > 0 ? seconds : nil
    }
}
