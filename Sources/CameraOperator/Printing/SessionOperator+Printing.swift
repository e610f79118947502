import Printing

extension SessionOperator {
    /// A picture sent to a printer, followed until it is printed or fails.
    public struct PrintJob: Sendable {
        /// The printer's name, as it says it.
        public let printer: String
        /// The printer's number for the job.
        public let job: Int
        private let following: Task<String?, Never>

        init(printer: String, job: Int, following: Task<String?, Never>) {
            (self.printer, self.job, self.following) = (printer, job, following)
        }

        /// Waits until the job ends: `nil` once printed, else why it was not.
        public func ended() async -> String? {
            await following.value
        }
    }

    /// Sends `picture` (`format` its media type) to `printer` (`nil`: CUPS's default) as every
    /// front end prints (``PrintSheet/print(_:format:title:on:options:cuttingStrips:)``), and tells
    /// its job on ``events()``: `printing` once sent, `print_progress` for each sheet the printer
    /// counts out, then `printed` or `print_failed`. Returns once the printer took the job; the
    /// job is followed beside whatever runs (``PrintJob/ended()`` waits for its end).
    ///
    /// - Throws: ``PrintError`` when the picture cannot be laid out, or the printer cannot be
    ///   reached or refuses it: answered to the one who asked, not told.
    public nonisolated func print(_ picture: [UInt8], format: String, title: String, on printer: String?, options: PrintOptions,
                                  cuttingStrips: Bool) async throws(PrintError) -> PrintJob {
        let (connected, job) = try await PrintSheet.print(picture, format: format, title: title, on: printer, options: options,
                                                          cuttingStrips: cuttingStrips)
        let (broadcast, name, number, copies) = (eventBroadcast, connected.name, Int(job), options.copies)
        broadcast.send(.printing(printer: name, job: number))
        let following = Task {
            let failure = await connected.failure(ofJob: job, within: PrintSheet.longestJob) { done in
                broadcast.send(.printProgress(printer: name, job: number, number: done, of: max(copies, done)))
            }
            broadcast.send(failure.map { .printFailed(reason: $0) } ?? .printed(printer: name, job: number))
            return failure
        }
        return PrintJob(printer: name, job: number, following: following)
    }

    /// Tells every reader of ``events()`` that a picture was not printed, for a print no one
    /// waits to be answered about (a booth's picture printed once kept).
    public nonisolated func tellNotPrinted(_ reason: String) {
        eventBroadcast.send(.printFailed(reason: reason))
    }
}
