import Foundation
import HEIF
import TestSupport
import Testing

@Suite("Reading HEIF files: items and properties, and malformed input refused", .computes)
struct HEIFContentsTests {
    private static let made = Task {
        let image = HEIFImage(primary: .single(try await HEIFWriterTests.picture(640, 480)),
                              thumbnail: try await HEIFWriterTests.picture(160, 120),
                              exif: HEIFWriterTests.tiff(orientation: 6), orientation: 6, colour: HEIFWriterTests.fixtureColour)
        return try image.fileData()
    }
    /// A HEIC file written by the HEIF module: a failure to make it fails the test that asks.
    static var file: [UInt8] { get async throws { try await made.value } }

    @Test("A file we wrote reads back with its items, properties and references")
    func readsOwnFile() async throws {
        let contents = try HEIFContents(parsing: await Self.file)
        #expect(contents.majorBrand == "heic" && contents.compatibleBrands == ["mif1", "heic"])
        #expect(contents.items.map(\.type) == ["hvc1", "hvc1", "Exif"])
        let primary = try #require(contents.primary)
        #expect(primary.properties.contains(.size(width: 640, height: 480)))
        #expect(primary.properties.contains(.rotation(quarterTurns: 3)))
        #expect(primary.properties.contains(.hevcConfiguration(profile: 3, level: 90, chromaFormat: 1, bitDepth: 8)))
        #expect(primary.properties.contains(.colour("nclx")))
        #expect(contents.displaySize.map { [$0.width, $0.height] } == [480, 640])
        #expect(contents.thumbnail?.properties.contains(.size(width: 160, height: 120)) == true)
        let exif = try #require(contents.items.first { $0.type == "Exif" })
        #expect(exif.isHidden && exif.references["cdsc"] == [1] && exif.dataLength == 4 + 26)
    }

    @Test("Every truncation of a valid file is refused with a sentence, never a crash")
    func truncations() async throws {
        let file = try await Self.file
        // Whole, it reads; cut anywhere, the boxes or the items' extents (the last of which ends
        // the file) run past its end, and it is refused, each cut on its own.
        #expect(throws: Never.self) { try HEIFContents(parsing: file) }
        for length in Array(stride(from: 0, to: file.count, by: 7)) + [file.count - 1] {
            let error = #expect(throws: HEIFError.self, "cut to \(length) of \(file.count) bytes") {
                try HEIFContents(parsing: Array(file.prefix(length)))
            }
            #expect(error.map { !$0.message.isEmpty } ?? true, "cut to \(length) bytes: refused without a sentence")
        }
    }

    @Test("Thousands of corrupted copies are refused with a sentence or read, never a crash")
    func corruptions() async throws {
        var generator = SystemRandomNumberGenerator()
        let file = try await Self.file
        for _ in 0..<3000 {
            var copy = file
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                // Most damage where the structure is: the first 600 bytes hold ftyp and meta.
                let index = Int.random(in: 0..<min(copy.count, 600), using: &generator)
                copy[index] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                _ = try HEIFContents(parsing: copy)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }

    static let notHEIFCases: [([UInt8], String)] = {
        let empty: [UInt8] = []
        let text: [UInt8] = Array("plain text, not a picture".utf8)
        var brandsOnly: [UInt8] = [0, 0, 0, 16]
        brandsOnly += Array("ftypheic".utf8)
        brandsOnly += [0, 0, 0, 0]
        var huge: [UInt8] = [0, 0, 0, 1]
        huge += Array("ftyp".utf8)
        huge += [UInt8](repeating: 0xFF, count: 8)
        return [
            (empty, "the file does not start with an ftyp box; it is not a HEIF file"),
            (text, "the file does not start with an ftyp box; it is not a HEIF file"),
            (brandsOnly, "the file has no meta box, so it holds no images"),
            (huge, "a field holds 18446744073709551615, too large for this reader"),
        ]
    }()

    @Test("Inputs that are not HEIF say so", arguments: notHEIFCases)
    func notHEIF(data: [UInt8], message: String) async {
        let error = #expect(throws: HEIFError.self) { try HEIFContents(parsing: data) }
        #expect(error?.message == message)
    }
}
