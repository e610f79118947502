import GStreamer
import OperatorWire
import PhotoLibrary
import Printing
import Synchronization

/// The server's printer (`serve --printer`): a library photo printed on request, at most
/// `limit` copies of each picture in all (guests at a booth print their own), each job followed
/// until it is printed and told as events (`printing`, `printed`, `print_failed`).
final class PrintDesk: Sendable {
    /// The printer: a CUPS queue's name or an IPP printer's URI; `nil` for CUPS's default one.
    let printer: String?
    /// The most copies of one picture the server prints.
    let limit: Int
    private let printed = Mutex<[Int64: Int]>([:])
    private static let lane = BlockingLane(label: "printing")

    init(printer: String?, limit: Int) {
        (self.printer, self.limit) = (printer, limit)
    }

    /// Sends `copies` of the photo's file to the printer; returns the job's outcome at once, and
    /// tells the job's end on `events`.
    func print(_ photo: LibraryPhoto, bytes: [UInt8], copies: Int, events: EventHub) async throws(APIError) -> OutcomeRecord {
        let allowed = printed.withLock { printed in
            guard printed[photo.id, default: 0] + copies <= limit else { return false }
            printed[photo.id, default: 0] += copies
            return true
        }
        guard allowed else { throw APIError(409, "photo \(photo.id) has had its \(limit) printed copies; this server prints no more of it") }
        let destination = printer
        let submitted = await Self.lane.run {
            Result { () throws(PrintError) -> (Printer, Int32) in
                let connected = try Printer(destination)
                return (connected, try connected.submit(bytes, format: photo.mediaType, title: "camctl photo \(photo.id)", copies: copies))
            }
        }
        switch submitted {
        case .failure(let error):
            printed.withLock { $0[photo.id, default: 0] -= copies }
            throw APIError(503, "the photo was not printed: \(error.message)")
        case .success(let (connected, job)):
            events.publish(.printing(printer: connected.name, job: Int(job)))
            Task { await Self.follow(job, on: connected, events: events) }
            return .printing(printer: connected.name, job: Int(job))
        }
    }

    /// Follows the job until it ends (ten minutes at most), and tells its end.
    private static func follow(_ job: Int32, on printer: Printer, events: EventHub) async {
        if let reason = await printer.failure(ofJob: job, within: .seconds(600)) {
            events.publish(.printFailed(message: reason))
        } else {
            events.publish(.printed(printer: printer.name, job: Int(job)))
        }
    }
}
