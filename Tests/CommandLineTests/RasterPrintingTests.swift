import Foundation
import TestSupport
import Testing

/// cups-filters' own reader of PWG and Apple raster: it makes a PDF of the pages.
private let rasterToPDF = "/usr/lib/cups/filter/rastertopdf"

@Suite("Printing to a printer that takes no JPEG: PWG raster and Apple raster", .printsToIPP,
       .enabled(if: IPPPrinter.isAvailable && ChildProcess.isInstalled("pdftoppm") && FileManager.default.isExecutableFile(atPath: rasterToPDF),
                "needs cups-ipp-utils, avahi-daemon, dbus-daemon, cups-filters and poppler-utils"))
struct RasterPrintingTests {
    /// What each printer says of the raster it takes, beside its format: colour and grey, 300 and 600 dots an inch.
    static let offers = [
        "image/pwg-raster": ["ATTR keyword pwg-raster-document-type-supported black_1,sgray_8,srgb_8",
                             "ATTR resolution pwg-raster-document-resolution-supported 300dpi,600dpi"],
        "image/urf": ["ATTR keyword urf-supported V1.4,CP1,W8,SRGB24,RS300-600"],
    ]

    @Test("The photo is sent as one page of the printer's raster, turned and fitted whole to its 4x6 paper at 300 dots an inch: read back by cups-filters and poppler, it is the photo",
          arguments: ["image/pwg-raster", "image/urf"])
    func rasterPage(format: String) async throws {
        let printer = try await IPPPrinter(formats: format, media: ["na_index-4x6_4x6in"], attributes: Self.offers[format] ?? [])
        let camctl = try Camctl()
        let printed = try await camctl("capture", "--device", "test", "--resolution", "640x480", "--print", "--printer", printer.uri)
        #expect(printed.status == 0, "\(printed.standardError)")
        let photo = printed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let documents = try printer.documents()
        #expect(documents.count == 1, "one job")
        let document = try #require(documents.first)
        #expect(document.starts(with: Array((format == "image/urf" ? "UNIRAST" : "RaS2").utf8)), "\(document.prefix(8))")
        // The page as a tool of others reads it: a PDF page, drawn at 300 dots an inch.
        let folder = try TemporaryFolder()
        let raster = folder.path("page")
        try Data(document).write(to: URL(fileURLWithPath: raster))
        let pdf = try await ChildProcess.run("/bin/sh", ["-c", "CONTENT_TYPE=\(format) \(rasterToPDF) 1 camctl photo 1 '' \"$0\" > \"$0.pdf\"", raster])
        #expect(pdf.status == 0, "\(pdf.standardError)")
        let drawn = try await ChildProcess.run("pdftoppm", ["-r", "300", raster + ".pdf", folder.path("drawn")])
        #expect(drawn.status == 0, "\(drawn.standardError)")
        let page = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).first { $0.hasSuffix(".ppm") })
        let (width, height, pixels) = try Self.ppm(folder.path(page))
        #expect(width == 1200 && height == 1800, "\(width)x\(height): 4x6 inches at 300 dots an inch")
        // The photo turned a quarter clockwise, fitted whole: 1200x1600 in the middle, white above and below.
        let expected = folder.path("expected.rgb")
        let made = try await ChildProcess.run("gst-launch-1.0", ["-q", "filesrc", "location=\(photo)", "!", "jpegdec", "!", "videoconvert", "!",
                                                                "videoflip", "video-direction=90r", "!", "videoscale", "!",
                                                                "video/x-raw,format=RGB,width=1200,height=1600", "!", "filesink", "location=\(expected)"])
        #expect(made.status == 0, "\(made.standardError)")
        let photoPixels = [UInt8](try Data(contentsOf: URL(fileURLWithPath: expected)))
        #expect(photoPixels.count == 1200 * 1600 * 3)
        guard width == 1200, height == 1800, photoPixels.count == 1200 * 1600 * 3 else { return }
        let shown = Array(pixels[(100 * 1200 * 3)..<(1700 * 1200 * 3)])
        let difference = zip(shown, photoPixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / shown.count
        #expect(difference < 12, "the page's middle is the photo: mean difference \(difference)")
        let margins = Array(pixels[0..<(90 * 1200 * 3)]) + Array(pixels[(1710 * 1200 * 3)...])
        #expect(margins.allSatisfy { $0 > 235 }, "white above and below the photo")
    }

    @Test("A printer that takes neither JPEG nor a raster camctl writes is refused in one sentence naming what it takes; a booth's check says so before the first shot")
    func neitherFormat() async throws {
        let printer = try await IPPPrinter(formats: "application/pdf", media: ["na_index-4x6_4x6in"])
        let camctl = try Camctl()
        let printed = try await camctl("capture", "--device", "test", "--resolution", "320x240", "--print", "--printer", printer.uri)
        #expect(printed.status == 69, "\(printed.standardError)")
        #expect(printed.standardError.contains("takes neither image/jpeg nor a raster camctl writes (PWG or Apple raster); it takes application/pdf"),
                "\(printed.standardError)")
        let booth = try await camctl.run(PrintCommandTests.booth + ["--print", "--printer", printer.uri])
        #expect(booth.status == 69 && booth.standardError.contains("no photo was taken"), "\(booth.standardError)")
        #expect(try await camctl.photos().count == 1, "the capture's photo is kept; the booth took none")
        // A served booth that prints by its settings says so before its first shot too.
        let served = try await ServedCamera(extra: ["--printer", printer.uri])
        defer { served.process.send(SIGTERM) }
        #expect(try await served.request("/api/settings", ["-X", "PUT", "-d", #"{"countdown": 0, "shots": 1, "print": true}"#]).status == 200)
        let refused = try await served.request("/api/actions", ["-d", #"{"action": "booth"}"#])
        #expect(refused.status == 503 && refused.body.contains("takes neither image/jpeg nor a raster camctl writes")
                && refused.body.contains("no photo was taken"), "\(refused.body)")
        #expect(try await served.json("/api/photos").object["total"] as? Int == 0)
    }

    /// A binary PPM's size and RGB pixels.
    static func ppm(_ path: String) throws -> (Int, Int, [UInt8]) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // "P6\n<width> <height>\n255\n" then the pixels.
        var fields: [String] = [], index = 0, current = ""
        while fields.count < 4, index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 {
                if !current.isEmpty { fields.append(current) }
                current = ""
            } else {
                current.append(Character(UnicodeScalar(byte)))
            }
        }
        guard fields.count == 4, fields[0] == "P6", let width = Int(fields[1]), let height = Int(fields[2]) else {
            throw ChildProcess.Failure(message: "\(path) is not a binary PPM: \(fields)")
        }
        return (width, height, Array(bytes[index...]))
    }
}
