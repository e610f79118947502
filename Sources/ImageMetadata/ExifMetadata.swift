import FoundationEssentials
import Glibc

/// The EXIF fields camctl writes into every photo, and their encoding as a TIFF block.
///
/// Written in Swift rather than through GStreamer's tag library because that one writes neither
/// SubSecTimeOriginal nor OffsetTimeOriginal, which tell photos of a burst apart and place them in time.
public struct ExifMetadata: Sendable, Equatable {
    /// What the flash did, as EXIF's Flash field records it.
    public enum Flash: UInt16, Sendable {
        /// The camera has no flash.
        case noFlashFunction = 0x20
        /// The flash was off.
        case off = 0x10
        /// The flash fired.
        case fired = 0x01
    }

    /// The camera maker (`Make`).
    public var make: String?
    /// The camera model (`Model`).
    public var model: String?
    /// The program that made the file (`Software`).
    public var software: String?
    /// How to turn the stored pixels to show them, 1 (as stored) to 8, as EXIF numbers them.
    public var orientation: Int = 1
    /// The moment of capture (`DateTimeOriginal` with `SubSecTimeOriginal` and `OffsetTimeOriginal`).
    public var dateTimeOriginal: Date?
    /// The offset from UTC, in seconds east, the capture time is written at; `nil` for the
    /// system's local time at the moment of capture.
    public var utcOffset: Int?
    /// The image width in pixels (`PixelXDimension`).
    public var pixelWidth: Int?
    /// The image height in pixels (`PixelYDimension`).
    public var pixelHeight: Int?
    /// What the flash did.
    public var flash: Flash?
    /// The digital zoom ratio, where zoom was applied.
    public var digitalZoomRatio: Double?
    /// A small JPEG of the picture, written in IFD1 as cameras write theirs, when the whole block
    /// still fits a JPEG's APP1 segment (``maximumSize``); for JPEG photos (HEIF keeps its own).
    public var thumbnail: [UInt8]?

    /// The largest block a JPEG's APP1 segment holds after its `Exif\0\0` name.
    public static let maximumSize = 0xFFFF - 2 - 6

    /// Makes empty metadata.
    public init() {}

    /// The metadata as a little-endian TIFF block (`II*\0…`): the payload of a JPEG APP1 segment
    /// after `Exif\0\0`, or of a HEIF Exif item after its offset field.
    public func tiffData() -> [UInt8] {
        var primary: [TIFFWriter.Entry] = []
        if let make { primary.append(.ascii(0x010F, make)) }
        if let model { primary.append(.ascii(0x0110, model)) }
        primary.append(.short(0x0112, UInt16(clamping: (1...8).contains(orientation) ? orientation : 1)))
        // 72 pixels per inch and centred chroma: the values EXIF requires and every reader assumes.
        primary += [.rational(0x011A, 72, 1), .rational(0x011B, 72, 1), .short(0x0128, 2), .short(0x0213, 1)]
        if let software { primary.append(.ascii(0x0131, software)) }
        let stamp = dateTimeOriginal.map(timestamp)
        if let stamp { primary.append(.ascii(0x0132, stamp.dateTime)) }

        var exif: [TIFFWriter.Entry] = [
            .undefined(0x9000, Array("0232".utf8)),   // ExifVersion
            .undefined(0x9101, [1, 2, 3, 0]),         // ComponentsConfiguration: Y, Cb, Cr
            .undefined(0xA000, Array("0100".utf8)),   // FlashpixVersion
        ]
        if let stamp {
            exif += [.ascii(0x9003, stamp.dateTime), .ascii(0x9004, stamp.dateTime),
                     .ascii(0x9011, stamp.offset), .ascii(0x9291, stamp.subSeconds)]
        }
        if let flash { exif.append(.short(0x9209, flash.rawValue)) }
        exif.append(.short(0xA001, 1))  // ColorSpace: sRGB
        if let pixelWidth { exif.append(.long(0xA002, UInt32(clamping: pixelWidth))) }
        if let pixelHeight { exif.append(.long(0xA003, UInt32(clamping: pixelHeight))) }
        if let digitalZoomRatio { exif.append(.rational(0xA404, UInt32((digitalZoomRatio * 100).rounded()), 100)) }
        if let thumbnail {
            let withThumbnail = TIFFWriter.write(primary: primary, exif: exif, thumbnail: thumbnail)
            if withThumbnail.count <= Self.maximumSize { return withThumbnail }
        }
        return TIFFWriter.write(primary: primary, exif: exif)
    }

    private func timestamp(_ date: Date) -> (dateTime: String, subSeconds: String, offset: String) {
        let time = WallClockTime(date, utcOffset: utcOffset)
        return (time.formatted("yyyy:MM:dd HH:mm:ss"), time.formatted("SSS"), time.offsetText)
    }
}
