import Foundation
import HEIF
import TestSupport
import Testing

@Suite("HEIF files written in Swift open in libheif and exiftool", .startsPrograms)
struct HEIFWriterTests {
    static func picture(_ width: Int, _ height: Int, pattern: String = "smpte") async throws -> HEVCPicture {
        let (configuration, accessUnit) = try await HEVCFixture.encode(width: width, height: height, pattern: pattern)
        return HEVCPicture(configuration: configuration, accessUnit: accessUnit, width: width, height: height)
    }

    /// Minimal EXIF in TIFF form: big-endian, one IFD with Orientation.
    static func tiff(orientation: UInt16) -> [UInt8] {
        [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // MM, 42, IFD at 8
         0x00, 0x01,                                      // one entry
         0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0x00, 0x00,
         0x00, 0x00, 0x00, 0x00]                          // no next IFD
    }

    /// The colours `HEVCFixture`'s pictures are encoded in: BT.709, limited range.
    static let fixtureColour = HEIFImage.Colour(primaries: 1, transfer: 1, matrix: 1, fullRange: false)

    @Test("A picture with a thumbnail and EXIF: heif-info, heif-convert and exiftool read it")
    func singleImage() async throws {
        let folder = try TemporaryFolder()
        let image = HEIFImage(primary: .single(try await Self.picture(640, 480)), thumbnail: try await Self.picture(160, 120),
                              exif: Self.tiff(orientation: 1), colour: Self.fixtureColour)
        let path = folder.path("photo.heic")
        try Data(try image.fileData()).write(to: URL(fileURLWithPath: path))
        let info = try await ChildProcess.run("heif-info", [path])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.standardOutput.contains("MIME type: image/heic"))
        #expect(info.standardOutput.contains("image: 640x480 (id=1), primary"))
        #expect(info.standardOutput.contains("thumbnail: 160x120"))
        #expect(info.standardOutput.contains("Exif: 30 bytes"))
        let png = folder.path("photo.png")
        let converted = try await ChildProcess.run("heif-convert", ["--quiet", path, png])
        #expect(converted.status == 0, "\(converted.standardError)")
        #expect(try Self.pngSize(png) == [640, 480])
        let exif = try await ChildProcess.run("exiftool", ["-s3", "-FileType", "-ImageWidth", "-ImageHeight", "-GeneralProfileIDC",
                                                     "-ChromaFormat", "-BitDepthLuma", path]).standardOutput
        #expect(exif.split(separator: "\n") == ["HEIC", "640", "480", "Main Still Picture", "4:2:0", "8"])
        #expect(try await ChildProcess.run("exiftool", ["-validate", "-s3", path]).standardOutput.hasPrefix("OK"))
    }

    @Test("Orientation 6 is irot and EXIF together: the picture decodes turned a quarter clockwise")
    func rotated() async throws {
        let folder = try TemporaryFolder()
        let image = HEIFImage(primary: .single(try await Self.picture(640, 480)), exif: Self.tiff(orientation: 6), orientation: 6)
        let path = folder.path("rotated.heic")
        try Data(try image.fileData()).write(to: URL(fileURLWithPath: path))
        let info = try await ChildProcess.run("heif-info", [path])
        #expect(info.standardOutput.contains("image: 480x640"), "\(info.standardOutput)")
        let png = folder.path("rotated.png")
        #expect(try await ChildProcess.run("heif-convert", ["--quiet", path, png]).status == 0)
        #expect(try Self.pngSize(png) == [480, 640])
        let exif = try await ChildProcess.run("exiftool", ["-s3", "-Rotation", "-Orientation", path]).standardOutput
        #expect(exif.split(separator: "\n") == ["270", "Rotate 90 CW"])
    }

    @Test("A grid of 512x512 tiles decodes to the exact size")
    func grid() async throws {
        let folder = try TemporaryFolder()
        let tile = try await Self.picture(512, 512, pattern: "ball")
        let image = HEIFImage(primary: .grid(tiles: Array(repeating: tile, count: 6), columns: 3, width: 1400, height: 1000))
        let path = folder.path("grid.heic")
        try Data(try image.fileData()).write(to: URL(fileURLWithPath: path))
        let info = try await ChildProcess.run("heif-info", [path])
        #expect(info.status == 0, "\(info.standardError)")
        #expect(info.standardOutput.contains("image: 1400x1000 (id=1), primary"), "\(info.standardOutput)")
        let png = folder.path("grid.png")
        #expect(try await ChildProcess.run("heif-convert", ["--quiet", path, png]).status == 0)
        #expect(try Self.pngSize(png) == [1400, 1000])
    }

    @Test("Bad input is refused with a sentence, not written", arguments: [
        (HEVCPicture(configuration: [1, 2, 3], accessUnit: [0, 0, 0, 1, 0x28], width: 2, height: 2),
         "the HEVC decoder configuration is 3 bytes, not an hvcC record"),
    ])
    func badInput(picture: HEVCPicture, message: String) async {
        let error = #expect(throws: HEIFError.self) { try HEIFImage(primary: .single(picture)).fileData() }
        #expect(error?.message == message)
    }

    /// A PNG's width and height, from its IHDR chunk.
    static func pngSize(_ path: String) throws -> [Int] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count >= 24 else { return [] }
        return [16, 20].map { start in bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) } }
    }
}
