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
        after --review-timeout seconds (30; 0 waits for ever).
        """

    /// Whether photos are reviewed.
    let isOn: Bool
    /// How long a review waits for an answer before keeping; `nil` for ever.
    let timeout: Double?

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        isOn = arguments.flag("--review")
        let seconds = try arguments.seconds("--review-timeout") ?? 30
        timeout = seconds > 0 ? seconds : nil
        if !isOn, arguments.string("--review-timeout") != nil {
            throw CommandFailure("--review-timeout needs --review", exitCode: .usage)
        }
    }

    /// Listens for the answers: keys on a terminal, else lines on standard input.
    func listen(_ controls: ControlInbox) {
        guard isOn else { return }
        controls.listenToKeys()
        controls.listenToReviewLines()
    }
}
