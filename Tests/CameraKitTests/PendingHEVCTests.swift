@testable import CameraKit
import Foundation
import GStreamer
import HEIF
import ImageMetadata
import Testing

@Suite("HEIC photos finished later: the spooled frame", .hangGuard(minutes: 3))
struct PendingHEVCTests {
    /// A photo taken with deferred processing, from the test camera.
    static func pendingPhoto(_ format: String = "320x240@30") async throws -> Photo {
        var configuration = try CaptureSessionTests.configuration(format)
        configuration.exposureSettling = nil
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        var settings = PhotoSettings()
        settings.codec = .hevc
        settings.defersHEVCProcessing = true
        let photo = try await session.photoOutput.capture(settings)
        await session.stop()
        return photo
    }

    @Test("A deferred HEIC photo comes as a JPEG proxy at once, and its spool makes the HEIC, the same size, with EXIF")
    func proxyThenFinal() async throws {
        let photo = try await Self.pendingPhoto()
        #expect(photo.resolvedSettings.codec == .jpeg && Array(photo.fileData.prefix(2)) == [0xFF, 0xD8], "the proxy is a JPEG")
        let pending = try #require(photo.pendingHEVC)
        let finisher = HEICFinisher()
        let heic = try await finisher.heicFile(of: PendingHEVC(spooled: pending.spooled))
        await finisher.stop()
        let contents = try HEIFContents(parsing: heic)
        #expect(contents.displaySize.map { [$0.width, $0.height] } == [320, 240])
        #expect(contents.thumbnail != nil)
        #expect(contents.items.contains { $0.type == "Exif" }, "the EXIF block is kept")
    }

    @Test("A spool with any byte changed, cut short or grown is refused, never read")
    func damagedSpools() async throws {
        let spooled = try #require(try await Self.pendingPhoto().pendingHEVC?.spooled)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var damaged = spooled
            let at = Int.random(in: 0..<damaged.count, using: &generator)
            damaged[at] ^= UInt8.random(in: 1...255, using: &generator)
            #expect(throws: CaptureError.self) { try PendingHEVC(spooled: damaged).decoded() }
        }
        for cut in [0, 1, 16, 40, spooled.count / 2, spooled.count - 1] {
            #expect(throws: CaptureError.self) { try PendingHEVC(spooled: Array(spooled.prefix(cut))).decoded() }
        }
        #expect(throws: CaptureError.self) { try PendingHEVC(spooled: spooled + [0]).decoded() }
    }

    @Test("Spools whose checksum holds but whose fields lie are refused: every length and size is checked")
    func lyingFields() async throws {
        var generator = SystemRandomNumberGenerator()
        let magic = Array("camctl-pending\n\u{0}".utf8)
        func u32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        func u64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        let caps = Array("video/x-raw, format=(string)I420, width=(int)16, height=(int)16, framerate=(fraction)30/1".utf8)
        let frame = [UInt8](repeating: 128, count: 16 * 16 * 3 / 2)
        func spool(_ fields: [UInt32], caps: [UInt8], capsLength: UInt32? = nil, frameLength: UInt64? = nil, frame: [UInt8]) -> [UInt8] {
            var body = magic + u32(1) + fields.flatMap(u32) + u32(4) + Array("none".utf8)
            body += u32(capsLength ?? UInt32(caps.count)) + caps + u32(0) + u64(frameLength ?? UInt64(frame.count)) + frame
            let crc = CRC32.checksum(body)
            return body + (0..<4).map { UInt8(truncatingIfNeeded: crc >> ($0 * 8)) }
        }
        let good = spool([16, 16, 90, 0, 0, 0, 1], caps: caps, frame: frame)
        #expect(throws: Never.self) { try PendingHEVC(spooled: good).decoded() }
        let lies: [[UInt8]] = [
            spool([16, 16, 90, 0, 0, 0, 1], caps: caps, frameLength: UInt64.max, frame: frame),
            spool([16, 16, 90, 0, 0, 0, 1], caps: caps, frameLength: 10, frame: frame),
            spool([16, 16, 90, 0, 0, 0, 1], caps: caps, capsLength: UInt32.max, frame: frame),
            spool([16, 16, 90, 0, 0, 0, 1], caps: caps, frame: Array(frame.dropLast())),
            spool([16, 16, 90, 0, 0, 0, 1], caps: Array("video/x-raw, format=(string)RGB, width=(int)16, height=(int)16".utf8), frame: frame),
            spool([16, 16, 90, 0, 0, 0, 1], caps: Array("not caps at all (".utf8), frame: frame),
            spool([0, 16, 90, 0, 0, 0, 1], caps: caps, frame: frame),
            spool([16, 16, 0, 0, 0, 0, 1], caps: caps, frame: frame),
            spool([16, 16, 90, 7, 0, 0, 1], caps: caps, frame: frame),
            spool([16, 16, 90, 0, 0, 0, 9], caps: caps, frame: frame),
            spool([16, 16, 90, 0, UInt32.max, 0, 1], caps: caps, frame: frame),
        ]
        for lie in lies {
            #expect(throws: CaptureError.self) { try PendingHEVC(spooled: lie).decoded() }
        }
        for _ in 0..<2000 {
            let choices: [UInt32] = [0, 1, 16, 90, 65_535, UInt32.max]
            let fields = (0..<7).map { _ in choices[Int.random(in: choices.indices, using: &generator)] }
            let bytes = spool(fields, caps: caps, capsLength: Bool.random(using: &generator) ? nil : UInt32.random(in: 0...200, using: &generator),
                              frameLength: Bool.random(using: &generator) ? nil : UInt64.random(in: 0...1000, using: &generator), frame: frame)
            if let (decoded, layout) = try? PendingHEVC(spooled: bytes).decoded() {
                #expect(decoded.videoInfo?.frameSize == frame.count && (16...65_535).contains(layout.width))
            }
        }
    }
}
