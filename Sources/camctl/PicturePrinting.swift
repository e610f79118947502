import CameraOperator
import FoundationEssentials
import GStreamer
import OperatorWire
import Printing

/// `--print`: a picture sent to a printer once it is kept (`--printer` a CUPS queue or an
/// `ipp://` address, else CUPS's default printer; `--copies`), its progress told as events with
/// `--json` (`printing`, `printed`), and awaited until printed.
struct PicturePrinting {
    static let options: [ParsedArguments.Option] = [
        .init(name: "--print", value: nil), .init(name: "--printer", value: "NAME|URI"), .init(name: "--copies", value: "N"),
    ]

    /// How long a job may take before camctl stops waiting for it: a photo printer takes a minute or two.
    static let longestJob = Duration.seconds(600)

    let printer: String?
    let copies: Int

    /// What `--print` asks for, or `nil` without it.
    init?(_ arguments: ParsedArguments) throws(CommandFailure) {
        guard arguments.flag("--print") else {
            for option in ["--printer", "--copies"] where arguments.string(option) != nil {
                throw CommandFailure("\(option) goes with --print", exitCode: .usage)
            }
            return nil
        }
        printer = arguments.string("--printer")
        copies = try arguments.integer("--copies", in: 1...20) ?? 1
    }

    /// Prints `picture` (a JPEG kept at `path`, read from there when `picture` is empty: a long
    /// burst keeps no photo's bytes) and waits until the printer has printed it.
    ///
    /// - Throws: exit code 69 when it is not printed (no printer, refused, stopped, failed), the
    ///   picture kept where it is.
    func print(_ picture: [UInt8], keptAt path: String, title: String, json: Bool) async throws(CommandFailure) {
        let (printer, copies) = (self.printer, self.copies)
        func failed(_ reason: String) -> CommandFailure {
            CommandFailure("\(reason); the picture was not printed, and is kept at \(path)", exitCode: .unavailable)
        }
        let submitted: Result<(Printer, Int32), PrintError> = await Self.lane.run {
            Result { () throws(PrintError) in
                let document = picture.isEmpty ? (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] : picture
                let connected = try Printer(printer)
                return (connected, try connected.submit(document, format: "image/jpeg", title: title, copies: copies))
            }
        }
        guard case .success(let (connected, job)) = submitted else {
            if case .failure(let error) = submitted { throw failed(error.message) }
            return
        }
        try tell(.printing(printer: connected.name, job: Int(job)), or: "printing on \(connected.name) (job \(job))", json: json)
        if let reason = await connected.failure(ofJob: job, within: Self.longestJob) { throw failed(reason) }
        try tell(.printed(printer: connected.name, job: Int(job)), or: "printed on \(connected.name)", json: json)
    }

    private func tell(_ event: EventRecord, or line: String, json: Bool) throws(CommandFailure) {
        if json { try Console.json(event) } else { Console.note(line) }
    }

    /// Where printers are talked to: off Swift's shared threads, a job at a time.
    private static let lane = BlockingLane(label: "printing")
}
