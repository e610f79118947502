/// Writes the IFDs of an EXIF block (the primary image's, the Exif sub-IFD, and the thumbnail's
/// IFD1 with its JPEG) as little-endian TIFF.
enum TIFFWriter {
    /// One IFD entry.
    enum Entry {
        case ascii(UInt16, String)
        case short(UInt16, UInt16)
        case long(UInt16, UInt32)
        case rational(UInt16, UInt32, UInt32)
        case undefined(UInt16, [UInt8])

        var tag: UInt16 {
            switch self {
            case .ascii(let tag, _), .short(let tag, _), .long(let tag, _), .rational(let tag, _, _), .undefined(let tag, _): tag
            }
        }

        /// The TIFF field type, the value count, and the value bytes.
        var encoded: (type: UInt16, count: UInt32, bytes: [UInt8]) {
            switch self {
            case .ascii(_, let text):
                let bytes = Array(text.utf8) + [0]
                return (2, UInt32(bytes.count), bytes)
            case .short(_, let value): return (3, 1, value.littleEndianBytes)
            case .long(_, let value): return (4, 1, value.littleEndianBytes)
            case .rational(_, let numerator, let denominator):
                return (5, 1, numerator.littleEndianBytes + denominator.littleEndianBytes)
            case .undefined(_, let bytes): return (7, UInt32(bytes.count), bytes)
            }
        }
    }

    private static let exifPointerTag: UInt16 = 0x8769

    /// `II*\0`, IFD0 (with a pointer to the Exif IFD), then the Exif IFD, each followed by its
    /// long values; with a thumbnail, IFD0 points on to IFD1, which holds the thumbnail's place and
    /// length, and the thumbnail's JPEG follows it.
    static func write(primary: [Entry], exif: [Entry], thumbnail: [UInt8]? = nil) -> [UInt8] {
        var output: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + UInt32(8).littleEndianBytes
        let primaryEntries = primary + [.long(exifPointerTag, 0)]
        let exifOffset = UInt32(8 + size(of: primaryEntries))
        let thumbnailOffset = exifOffset + UInt32(size(of: exif))
        output += ifd(primaryEntries.map { $0.tag == exifPointerTag ? .long(exifPointerTag, exifOffset) : $0 }, at: 8,
                      next: thumbnail == nil ? 0 : thumbnailOffset)
        output += ifd(exif, at: exifOffset)
        guard let thumbnail else { return output }
        // Compression 6 (JPEG), 72 pixels per inch, then JPEGInterchangeFormat and its length.
        let described: [Entry] = [.short(0x0103, 6), .rational(0x011A, 72, 1), .rational(0x011B, 72, 1), .short(0x0128, 2),
                                  .long(0x0202, UInt32(thumbnail.count))]
        let dataOffset = thumbnailOffset + UInt32(size(of: described + [.long(0x0201, 0)]))
        output += ifd(described + [.long(0x0201, dataOffset)], at: thumbnailOffset)
        return output + thumbnail
    }

    /// The bytes an IFD takes: count, 12-byte entries, next-IFD offset, and values longer than 4 bytes.
    private static func size(of entries: [Entry]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { total, entry in
            let bytes = entry.encoded.bytes.count
            return total + (bytes > 4 ? bytes + bytes % 2 : 0)
        }
    }

    private static func ifd(_ entries: [Entry], at offset: UInt32, next: UInt32 = 0) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var table = UInt16(sorted.count).littleEndianBytes
        var values: [UInt8] = []
        let valuesStart = offset + UInt32(2 + 12 * sorted.count + 4)
        for entry in sorted {
            let (type, count, bytes) = entry.encoded
            table += entry.tag.littleEndianBytes + type.littleEndianBytes + count.littleEndianBytes
            if bytes.count <= 4 {
                table += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                table += (valuesStart + UInt32(values.count)).littleEndianBytes
                values += bytes
                if values.count % 2 == 1 { values.append(0) }  // values start on word boundaries
            }
        }
        return table + next.littleEndianBytes + values
    }
}

extension FixedWidthInteger {
    var littleEndianBytes: [UInt8] {
        withUnsafeBytes(of: littleEndian) { Array($0) }
    }
}
