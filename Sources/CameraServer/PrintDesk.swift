import CameraOperator
import OperatorWire
import PhotoLibrary
import Printing
import Synchronization

/// The server's printer (`serve --printer`): a library photo printed on request, at most
/// `limit` copies of each picture in all (guests at a booth print their own), each job followed
/// until it is printed and told as events (`printing`, `printed`, `print_failed`).
final class PrintDesk: Sendable {
    /// The printer, its paper, and the most copies of one picture.
    let printing: CameraServer.Printing
    private let printed = Mutex<[Int64: Int]>([:])

    init(_ printing: CameraServer.Printing) {
        self.printing = printing
    }

    /// Sends `copies` of the photo's file to the printer; returns the job's outcome at once, and
    /// tells the job's end on `events`.
    func print(_ photo: LibraryPhoto, bytes: [UInt8], copies: Int, events: EventHub) async throws(APIError) -> OutcomeRecord {
        let allowed = printed.withLock { printed in
            guard printed[photo.id, default: 0] + copies <= printing.limit else { return false }
            printed[photo.id, default: 0] += copies
            return true
        }
        guard allowed else { throw APIError(409, "photo \(photo.id) has had its \(printing.limit) printed copies; this server prints no more of it") }
        do {
            let (connected, job) = try await PrintSheet.print(bytes, format: photo.mediaType, title: "camctl photo \(photo.id)", on: printing.printer,
                                                              options: PrintOptions(copies: copies, media: printing.media),
                                                              cuttingStrips: printing.cutsStrips)
            events.publish(.printing(printer: connected.name, job: Int(job)))
            Task { await Self.follow(job, on: connected, events: events) }
            return .printing(printer: connected.name, job: Int(job))
        } catch {
            printed.withLock { $0[photo.id, default: 0] -= copies }
            throw APIError(503, "the photo was not printed: \(error.message)")
        }
    }

    /// Follows the job until it ends (ten minutes at most), and tells its end.
    private static func follow(_ job: Int32, on printer: Printer, events: EventHub) async {
        if let reason = await printer.failure(ofJob: job, within: PrintSheet.longestJob) {
            events.publish(.printFailed(message: reason))
        } else {
            events.publish(.printed(printer: printer.name, job: Int(job)))
        }
    }
}
