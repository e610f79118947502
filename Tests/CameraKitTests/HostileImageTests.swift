import Foundation
import ImageMetadata
import TestSupport
import Testing

/// JPEG segments and PNG headers written to break their readers: each is refused or read within
/// bounds, never a trap, and pictures too large to decode are refused from their header alone.
@Suite("Hostile JPEG segments and PNG headers", .computes)
struct HostileImageTests {
    /// A JPEG start, an APP1 "Exif" segment with the given length field, and an end.
    static func jpeg(exifLength: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE1, UInt8(exifLength >> 8), UInt8(exifLength & 0xFF)] + Array("Exif".utf8) + [0, 0, 0xFF, 0xD9]
    }

    @Test("An Exif segment shorter than its own name is no EXIF block", arguments: 0...9)
    func shortExif(length: Int) async throws {
        let bytes = Self.jpeg(exifLength: length)
        let block = JPEGFile.exifBlock(of: bytes)
        if length < 8 { #expect(block == nil) }
        _ = try? JPEGFile.embeddingExif([0x49, 0x49, 0x2A, 0, 8, 0, 0, 0], in: bytes)
        _ = JPEGFile.dimensions(of: bytes)
    }

    /// An EXIF block saying Orientation 6, with a tiny thumbnail.
    static let turnedBlockWithThumbnail: [UInt8] = {
        var exif = ExifMetadata()
        exif.orientation = 6
        exif.thumbnail = [0xFF, 0xD8, 0xFF, 0xD9]
        return exif.tiffData()
    }()

    @Test("Removing a thumbnail edits only a block whose IFD0 follows its header, and keeps the orientation")
    func thumbnailRemoval() async throws {
        let block = Self.turnedBlockWithThumbnail
        let stripped = JPEGFile.removingThumbnail(fromExif: block)
        #expect(stripped.count == block.count && stripped != block)
        #expect(JPEGFile.orientation(inExif: stripped) == 6)
        // IFD0 placed over the header itself (a fuzzer's find): left as it is.
        let overlapping: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00]
        #expect(JPEGFile.removingThumbnail(fromExif: overlapping) == overlapping)
        for cut in 0..<block.count { _ = JPEGFile.removingThumbnail(fromExif: Array(block[..<cut])) }
    }

    @Test("A new thumbnail is added after the block, keeping the orientation; cut, hostile or oversized blocks give none, never a trap")
    func thumbnailReplacement() async throws {
        let block = Self.turnedBlockWithThumbnail
        let thumbnail: [UInt8] = [0xFF, 0xD8] + Array(repeating: 0x42, count: 100) + [0xFF, 0xD9]
        let replaced = try #require(JPEGFile.replacingThumbnail(inExif: block, with: thumbnail))
        #expect(JPEGFile.orientation(inExif: replaced) == 6)
        #expect(Array(replaced.suffix(thumbnail.count)) == thumbnail && replaced.count >= block.count + 2 + 36 + 4 + thumbnail.count)
        #expect(JPEGFile.replacingThumbnail(inExif: block, with: Array(repeating: 0, count: 65_500)) == nil, "too large for an EXIF segment")
        for cut in 0..<block.count {
            _ = JPEGFile.replacingThumbnail(inExif: Array(block[..<cut]), with: thumbnail)
            _ = JPEGFile.settingOrientation(inExif: Array(block[..<cut]), to: 1)
        }
        #expect(JPEGFile.orientation(inExif: JPEGFile.settingOrientation(inExif: block, to: 3)) == 3)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var hostile = block
            for _ in 0..<4 { hostile[Int.random(in: 0..<hostile.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = JPEGFile.replacingThumbnail(inExif: hostile, with: thumbnail)
        }
    }

    @Test("Every cut of a JPEG's segments is read or refused")
    func truncatedJPEG() async {
        let bytes = Self.jpeg(exifLength: 0x40) + Array(repeating: 0xFF, count: 80)
        for length in 0..<bytes.count {
            let prefix = Array(bytes.prefix(length))
            _ = JPEGFile.exifBlock(of: prefix)
            _ = JPEGFile.dimensions(of: prefix)
        }
        #expect(JPEGFile.orientation(inExif: [0x4D, 0x4D, 0, 0x2A, 0xFF, 0xFF, 0xFF, 0xFF]) == nil, "an IFD offset past the end")
    }

    @Test("A 20000x20000 header is refused as too large before anything decodes it")
    func headerBomb() async throws {
        #expect(throws: PNGHeader.Problem.tooLarge(width: 20_000, height: 20_000)) { try PNGHeader(parsing: HostileBytes.pngHeader(width: 20_000, height: 20_000)) }
        #expect(throws: PNGHeader.Problem.tooLarge(width: 100_000, height: 2)) { try PNGHeader(parsing: HostileBytes.pngHeader(width: 100_000, height: 2)) }
        #expect(try PNGHeader(parsing: HostileBytes.pngHeader(width: 8192, height: 8192)).width == 8192)
    }

    @Test("Damaged headers are refused with what is wrong")
    func damagedHeaders() async {
        #expect(throws: PNGHeader.Problem.notPNG) { try PNGHeader(parsing: Array("GIF89a".utf8)) }
        #expect(throws: PNGHeader.Problem.self) { try PNGHeader(parsing: HostileBytes.pngHeader(width: 0, height: 10)) }
        #expect(throws: PNGHeader.Problem.self) { try PNGHeader(parsing: HostileBytes.pngHeader(width: 0xFFFF_FFFF, height: 10)) }
        #expect(throws: PNGHeader.Problem.self) { try PNGHeader(parsing: HostileBytes.pngHeader(width: 10, height: 10, depth: 3)) }
        #expect(throws: PNGHeader.Problem.damaged("its header's checksum is wrong")) {
            try PNGHeader(parsing: HostileBytes.pngHeader(width: 10, height: 10, breakCRC: true))
        }
    }

    @Test("A real PNG's chunks check out; cut short or with a flipped byte, it is refused")
    func chunks() async throws {
        let folder = try TemporaryFolder()
        let made = try await ChildProcess.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=64,height=48",
                                                           "!", "pngenc", "!", "filesink", "location=\(folder.path("picture.png"))"])
        try #require(made.status == 0, "\(made.standardError)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.path("picture.png"))))
        #expect(try PNGHeader.checkingChunks(of: bytes).width == 64)
        #expect(throws: PNGHeader.Problem.self) { try PNGHeader.checkingChunks(of: Array(bytes.dropLast(20))) }
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x40
        #expect(throws: PNGHeader.Problem.self) { try PNGHeader.checkingChunks(of: flipped) }
        for length in stride(from: 0, to: bytes.count, by: 5) { _ = try? PNGHeader.checkingChunks(of: Array(bytes.prefix(length))) }
    }
}
