import CameraKit
import ImageMetadata
import Printing

/// The picture a printer is sent for a photo or a booth's picture.
public enum PrintSheet {
    /// The sheet two strips are printed on: 4x6 inches at 300 dots an inch, each strip fitted
    /// into a 2x6 inch half.
    public static let stripSheet = (width: 1200, height: 1800, media: "na_index-4x6_4x6in")

    /// What to print for `picture` (a JPEG), and the paper it is made for: with `cuttingStrips`, a
    /// strip (a picture at least twice as tall as wide, such as a 1x4 booth strip) twice side by
    /// side on a 4x6 inch sheet, to be cut into two 2x6 inch strips as booth printers do (made in
    /// the paper's own shape, so a printer fitting it to the paper fills the paper); any other
    /// picture as it is, for whatever paper is asked for.
    ///
    /// - Throws: ``CaptureError`` when the picture cannot be read or composed.
    public static func document(for picture: [UInt8], cuttingStrips: Bool) async throws(CaptureError) -> (bytes: [UInt8], media: String?) {
        guard cuttingStrips, isStrip(picture) else { return (picture, nil) }
        let half = PhotoComposer.Layout(columns: 2, rows: 1, cellWidth: stripSheet.width / 2, cellHeight: stripSheet.height, margin: 0)
        return (try await PhotoComposer.compose([picture, picture], layout: half, quality: 95), stripSheet.media)
    }

    /// Reaches `printer` (`nil`: CUPS's default) and checks that it takes the paper a picture will
    /// be printed on: the one `options` name, else with `cuttingStrips` the strip sheet's. What a
    /// booth asks before its first shot.
    ///
    /// - Throws: ``PrintError`` when the printer cannot be reached or takes not that paper.
    public static func check(_ printer: String?, options: PrintOptions, cuttingStrips: Bool) async throws(PrintError) {
        try await Printer.check(printer, takes: options.media ?? (cuttingStrips ? stripSheet.media : nil), format: "image/jpeg")
    }

    /// How long a job may take before it is given up: a photo printer takes a minute or two.
    public static let longestJob = Duration.seconds(600)

    /// Sends `picture` to `printer` (`nil`: CUPS's default) as every front end prints: laid out by
    /// ``document(for:cuttingStrips:)``, on the paper `options` name, else the one the sheet is made
    /// for; to a printer that takes no JPEG, as a page of the raster it takes, the sheet fitted to
    /// the paper at the printer's resolution (``PhotoComposer/page(of:width:height:)``). Returns the
    /// printer and the job's id; follow it with ``Printer/failure(ofJob:within:)``.
    ///
    /// - Throws: ``PrintError`` when the picture cannot be laid out, or the printer cannot be
    ///   reached or refuses it.
    public static func print(_ picture: [UInt8], format: String, title: String, on printer: String?, options: PrintOptions,
                             cuttingStrips: Bool) async throws(PrintError) -> (printer: Printer, job: Int32) {
        let sheet: (bytes: [UInt8], media: String?)
        do {
            sheet = try await document(for: picture, cuttingStrips: cuttingStrips)
        } catch {
            throw PrintError("the picture could not be laid out for printing (\(error.message))")
        }
        var options = options
        options.media = options.media ?? sheet.media
        return try await Printer.send(sheet.bytes, to: printer, format: format, title: title, options: options) { form throws(PrintError) in
            do throws(CaptureError) {
                return try await PhotoComposer.page(of: sheet.bytes, width: form.width, height: form.height)
            } catch {
                throw PrintError("the picture could not be made into a page for the printer (\(error.message))")
            }
        }
    }

    /// Whether a JPEG is a strip: at least twice as tall as it is wide.
    public static func isStrip(_ picture: [UInt8]) -> Bool {
        guard let size = JPEGFile.dimensions(of: picture) else { return false }
        return size.width > 0 && size.height >= 2 * size.width
    }
}
