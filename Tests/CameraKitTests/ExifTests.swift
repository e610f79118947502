import Foundation
import ImageMetadata
import TestSupport
import Testing

@Suite("EXIF written in Swift", .computes)
struct ExifTests {
    static func sample() -> ExifMetadata {
        var exif = ExifMetadata()
        exif.make = "camctl"
        exif.model = "Test camera"
        exif.software = "camctl test"
        exif.orientation = 6
        exif.dateTimeOriginal = Date(timeIntervalSince1970: 1_790_000_000.25)
        exif.utcOffset = 3600
        exif.pixelWidth = 4032
        exif.pixelHeight = 3024
        exif.flash = .noFlashFunction
        return exif
    }

    @Test("The TIFF block starts with a little-endian header and IFD0 right after it")
    func header() async {
        let tiff = Self.sample().tiffData()
        #expect(Array(tiff.prefix(8)) == [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00])
        let entries = Int(tiff[8]) | Int(tiff[9]) << 8
        #expect(entries == 10, "Make, Model, Orientation, X/YResolution, ResolutionUnit, Software, DateTime, YCbCrPositioning, Exif pointer")
        // Entries are sorted by tag: the first is Make (0x010F), ASCII, 7 bytes ("camctl\0").
        #expect(Array(tiff[10..<18]) == [0x0F, 0x01, 0x02, 0x00, 0x07, 0x00, 0x00, 0x00])
    }

    @Test("exiftool reads every field back, with sub-seconds and time zone")
    func exiftoolReadsFields() async throws {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0] + [0xFF, 0xD9]
        let tagged = try JPEGFile.embeddingExif(Self.sample().tiffData(), in: jpeg)
        #expect(Array(tagged.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1], "EXIF right after the start of image, JFIF gone")
        #expect(Array(tagged.suffix(2)) == [0xFF, 0xD9])
        let again = try JPEGFile.embeddingExif(Self.sample().tiffData(), in: tagged)
        #expect(again == tagged, "embedding twice replaces the block")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("exif-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(tagged).write(to: folder)
        let result = try await run("exiftool", ["-s", "-s", "-s", "-Make", "-Model", "-Software", "-Orientation#",
                                          "-DateTimeOriginal", "-SubSecTimeOriginal", "-OffsetTimeOriginal",
                                          "-ExifImageWidth", "-ExifImageHeight", "-Flash", folder.path])
        #expect(result.split(separator: "\n") == [
            "camctl", "Test camera", "camctl test", "6", "2026:09:21 15:13:20", "250", "+01:00", "4032", "3024", "No flash function",
        ])
    }

    @Test("Data that is not a JPEG is refused")
    func notJPEG() async {
        #expect(throws: JPEGFile.FormatError.self) { try JPEGFile.embeddingExif([1, 2, 3], in: [0x89, 0x50, 0x4E, 0x47]) }
        #expect(throws: JPEGFile.FormatError.self) { try JPEGFile.embeddingExif([1, 2, 3], in: [0xFF, 0xD8, 0xFF, 0xE0, 0x40, 0x00]) }
    }
}
