import CameraKit
import CameraOperator
import Formatting

/// The options that put each photo (or a booth's strip) on the preview to keep or discard before
/// anything is saved (`--review`), and how long an unanswered review waits (`--review-timeout`).
struct ReviewOptions {
    static let options: [ParsedArguments.Option] = [
        .init(name: "--review", value: nil), .init(name: "--review-timeout", value: "SECONDS"),
    ]

    static let help = """
        --review shows each photo on the preview before anything is saved: Enter, Space or k keeps it,
        Backspace, Delete or x discards it and leaves nothing (no file, no library entry, no --exec);
        with standard input not a terminal, the lines keep and discard answer. Unanswered, it is kept
        after --review-timeout seconds (\(String(printf: "%g", ReviewPlan.defaultTimeout)); 0 waits for ever).
        """

    /// The hint a review shows at the foot of the preview.
    static let hint = "Enter or k: keep    Backspace or x: discard"

    /// The review each photo waits for; `nil` without --review.
    let plan: ReviewPlan?

    /// Whether photos are reviewed.
    var isOn: Bool { plan != nil }

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        let timeout = try Self.timeout(arguments)
        plan = arguments.flag("--review") ? ReviewPlan(timeout: timeout, hint: Self.hint) : nil
        if plan == nil, arguments.string("--review-timeout") != nil {
            throw CommandFailure("--review-timeout needs --review", exitCode: .usage)
        }
    }

    /// How long a review waits for an answer as --review-timeout says; `nil` for ever.
    static func timeout(_ arguments: ParsedArguments) throws(CommandFailure) -> Double? {
        ReviewPlan.timeout(given: try arguments.seconds("--review-timeout"))
    }

    /// Listens for the answers: keys on a terminal, else lines on standard input.
    func listen(_ controls: ControlInbox, session: CaptureSession) {
        guard isOn else { return }
        controls.listenToKeys(of: session)
        controls.listenToReviewLines()
    }
}
