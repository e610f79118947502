import CameraKit
import CameraOperator
import FoundationEssentials
import Printing

/// `--print`: a picture sent to a printer once it is kept (`--printer` a CUPS queue or an
/// `ipp://` address, else CUPS's default printer; `--copies`; `--media`; `--cut-strips`) through
/// the operator, which tells its progress as events, and awaited until printed.
struct PicturePrinting {
    static let options: [ParsedArguments.Option] = [
        .init(name: "--print", value: nil), .init(name: "--printer", value: "NAME|URI"), .init(name: "--copies", value: "N"),
        .init(name: "--media", value: "SIZE"), .init(name: "--cut-strips", value: nil),
    ]

    static let help = """
        --print prints the picture once it is kept: on --printer (a CUPS queue's name, or an ipp://
        printer's address printed to straight; CUPS's default printer without it), --copies of it,
        on --media paper (4x6, 5x7, a6, a5, a4, letter, or a PWG name such as na_index-4x6_4x6in;
        the printer's default without it). --cut-strips prints a strip (booth --layout 1x4) twice side
        by side on a 4x6 inch sheet, each at its true 2x6 inch size, to be cut in two as booth printers
        do. A picture not printed ends camctl with exit code 69, the picture kept.
        """

    let printer: String?
    let options: PrintOptions
    /// Whether a strip is printed twice on a sheet to be cut in two.
    let cutsStrips: Bool

    /// Prints on `printer` (`nil`: CUPS's default) as `options` say, a strip twice when `cutsStrips`.
    init(printer: String?, options: PrintOptions, cutsStrips: Bool) {
        (self.printer, self.options, self.cutsStrips) = (printer, options, cutsStrips)
    }

    /// What `--print` asks for, or `nil` without it.
    init?(_ arguments: ParsedArguments) throws(CommandFailure) {
        guard arguments.flag("--print") else {
            for option in ["--printer", "--copies", "--media", "--cut-strips"] where arguments.string(option) != nil || arguments.flag(option) {
                throw CommandFailure("\(option) goes with --print", exitCode: .usage)
            }
            return nil
        }
        printer = arguments.string("--printer").flatMap(Self.printer(named:))
        cutsStrips = arguments.flag("--cut-strips")
        options = PrintOptions(copies: try arguments.integer("--copies", in: 1...20) ?? 1, media: try Self.media(arguments))
    }

    /// The printer a name given by the user means: `default` is CUPS's default printer (`nil`).
    static func printer(named name: String) -> String? {
        name == "default" ? nil : name
    }

    /// The paper `--media` names, refused when empty.
    static func media(_ arguments: ParsedArguments) throws(CommandFailure) -> String? {
        let media = arguments.string("--media")
        if media?.isEmpty == true { throw CommandFailure("--media needs a paper size, such as 4x6 or na_index-4x6_4x6in", exitCode: .usage) }
        return media
    }

    /// Checks, before the first shot, that the printer can be reached and takes the paper the
    /// picture will be printed on.
    ///
    /// - Throws: exit code 69, in one sentence, when it cannot be or does not.
    func checkBeforeShots() async throws(CommandFailure) {
        do {
            try await PrintSheet.check(printer, options: options, cuttingStrips: cutsStrips)
        } catch {
            throw CommandFailure("\(error.message); no photo was taken", exitCode: .unavailable)
        }
    }

    /// Prints `picture` (a JPEG or HEIC kept at `path`, read from there when `picture` is empty: a
    /// long burst keeps no photo's bytes; a HEIC is printed as its JPEG rendition) through
    /// `sessionOperator`, which tells the job on its events, and waits until the printer has printed it.
    ///
    /// - Throws: exit code 69 when it is not printed (no printer, refused, stopped, failed), the
    ///   picture kept where it is.
    func print(_ picture: [UInt8], keptAt path: String, title: String, through sessionOperator: SessionOperator) async throws(CommandFailure) {
        func failed(_ reason: String) -> CommandFailure {
            CommandFailure("\(reason); the picture was not printed, and is kept at \(path)", exitCode: .unavailable)
        }
        let job: SessionOperator.PrintJob
        do {
            let kept = picture.isEmpty ? (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? [] : picture
            job = try await sessionOperator.print(try await Self.jpeg(of: kept), format: "image/jpeg", title: title, on: printer, options: options,
                                                  cuttingStrips: cutsStrips)
        } catch {
            throw failed(error.message)
        }
        if let reason = await job.ended() { throw failed(reason) }
    }

    /// The picture as JPEG: a HEIC's rendition, decoded and encoded again; any other as it is.
    private static func jpeg(of picture: [UInt8]) async throws(PrintError) -> [UInt8] {
        guard picture.count >= 12, Array(picture[4..<8]) == Array("ftyp".utf8) else { return picture }
        do {
            return try await JPEGRendition.of(heic: picture)
        } catch {
            throw PrintError("the HEIC picture could not be made into a JPEG to print (\(error.message))")
        }
    }
}
