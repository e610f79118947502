import CameraOperator
import OperatorWire
import PhotoLibrary
import Printing

/// The server's printer (`serve --printer`): a library photo printed on request, at most
/// `limit` copies of each picture in all (guests at a booth print their own; counted in the
/// library, so a restart does not start the count again), each job told on the operator's events
/// until it is printed (`printing`, `print_progress`, `printed`, `print_failed`).
final class PrintDesk: Sendable {
    /// The printer, its paper, and the most copies of one picture.
    let printing: CameraServer.Printing

    init(_ printing: CameraServer.Printing) {
        self.printing = printing
    }

    /// Sends `copies` of the photo, as `picture` shows it (its bytes and media type), to the
    /// printer through `sessionOperator`, which tells the job on its events, counted in `shelf`'s
    /// library; returns the job's outcome at once.
    func print(_ photo: LibraryPhoto, _ picture: (bytes: [UInt8], type: String), copies: Int, counting shelf: LibraryShelf,
               through sessionOperator: SessionOperator) async throws(APIError) -> OutcomeRecord {
        let allowed: Bool
        do {
            allowed = try await shelf.countPrinted(copies, of: photo.id, limit: printing.limit)
        } catch {
            throw APIError(error)
        }
        guard allowed else { throw APIError(409, "photo \(photo.id) has had its \(printing.limit) printed copies; this server prints no more of it") }
        do {
            let job = try await sessionOperator.print(picture.bytes, format: picture.type, title: "camctl photo \(photo.id)", on: printing.printer,
                                                      options: PrintOptions(copies: copies, media: printing.media),
                                                      cuttingStrips: printing.cutsStrips)
            return .printing(printer: job.printer, job: job.job)
        } catch {
            await shelf.uncountPrinted(copies, of: photo.id)
            throw APIError(503, "the photo was not printed: \(error.message)")
        }
    }

    /// The printer's state, reasons and supplies as it says them, and the copies printed from `shelf`'s library.
    func status(counting shelf: LibraryShelf?) async -> PrinterRecord {
        let printed = (try? await shelf?.printedCopies()) ?? 0
        do {
            let (name, status) = try await Printer.status(of: printing.printer)
            return PrinterRecord(printer: name, state: status.state, reasons: status.reasons, message: status.message,
                                 supplies: status.supplies.map { PrinterRecord.Supply(name: $0.name, level: $0.level) }, printed: printed)
        } catch {
            return PrinterRecord(printer: printing.printer ?? "the default printer", state: "unreachable", message: error.message, printed: printed)
        }
    }
}
