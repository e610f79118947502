/// Edits the segments of a JPEG file without decoding it.
public enum JPEGFile {
    /// A JPEG file that could not be edited.
    public struct FormatError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The JPEG with `tiff` as its EXIF block: an APP1 segment right after the start of the image,
    /// as EXIF requires, in place of a JFIF APP0 segment or an earlier EXIF block.
    public static func embeddingExif(_ tiff: [UInt8], in jpeg: [UInt8]) throws(FormatError) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        guard payload.count + 2 <= 0xFFFF else {
            throw FormatError(description: "the EXIF block is \(payload.count) bytes, more than a JPEG segment holds")
        }
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw FormatError(description: "the data is not a JPEG file (no start-of-image marker)")
        }
        var index = 2
        // Skip JFIF (APP0) and earlier EXIF (APP1 "Exif") segments; keep everything else as it is.
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF, jpeg[index + 1] == 0xE0 || isExif(jpeg, at: index) {
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            guard length >= 2, index + 2 + length <= jpeg.count else {
                throw FormatError(description: "a JPEG segment runs past the end of the file")
            }
            index += 2 + length
        }
        let length = UInt16(payload.count + 2)
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg[index...]
    }

    /// Whether the segment at `index` is an APP1 "Exif" segment long enough to hold its name.
    private static func isExif(_ jpeg: [UInt8], at index: Int) -> Bool {
        guard jpeg[index + 1] == 0xE1, index + 10 <= jpeg.count else { return false }
        let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
        return length >= 8 && Array(jpeg[index + 4 ..< index + 10]) == Array("Exif".utf8) + [0, 0]
    }
}

extension JPEGFile {
    /// The width and height a JPEG file's frame header gives, without decoding it; `nil` when the
    /// data is not a JPEG file or ends before its frame header.
    public static func dimensions(of jpeg: some Collection<UInt8>) -> (width: Int, height: Int)? {
        let bytes = Array(jpeg)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 <= bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill byte
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            // Start-of-frame markers: C0–CF except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                let width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                return (width, height)
            }
            guard length >= 2, marker != 0xDA else { return nil }  // image data before any frame header
            index += 2 + length
        }
        return nil
    }
}

extension JPEGFile {
    /// The EXIF block (TIFF data) of a JPEG file's first EXIF segment, or `nil` when it has none.
    public static func exifBlock(of jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var index = 2
        while index + 4 <= jpeg.count, jpeg[index] == 0xFF, jpeg[index + 1] != 0xDA {
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            guard length >= 2, index + 2 + length <= jpeg.count else { return nil }
            if isExif(jpeg, at: index) { return Array(jpeg[index + 10 ..< index + 2 + length]) }
            index += 2 + length
        }
        return nil
    }

    /// A TIFF block without its thumbnail: IFD0 no longer points on to IFD1 (a picture changed
    /// after it was taken keeps its metadata, not a thumbnail of what it was). A block it cannot
    /// read is returned as it is.
    public static func removingThumbnail(fromExif tiff: [UInt8]) -> [UInt8] {
        // IFD0 starts after the 8-byte header, or the block is not one to edit.
        guard let reader = TIFFReader(tiff), let ifd = reader.number(at: 4, bytes: 4), ifd >= 8,
              let count = reader.number(at: ifd, bytes: 2) else { return tiff }
        let next = ifd + 2 + count * 12
        guard next + 4 <= tiff.count else { return tiff }
        var edited = tiff
        edited.replaceSubrange(next ..< next + 4, with: [0, 0, 0, 0])
        return edited
    }

    /// A TIFF block whose thumbnail is `thumbnail` (a small JPEG of the picture as it is now): a
    /// new IFD1 pointing at it is added at the block's end and IFD0 points on to it, in place of
    /// any thumbnail it had. `nil` when the block cannot be read, or the block with the thumbnail
    /// would not fit in a JPEG's EXIF segment.
    public static func replacingThumbnail(inExif tiff: [UInt8], with thumbnail: [UInt8]) -> [UInt8]? {
        guard let reader = TIFFReader(tiff), let ifd = reader.number(at: 4, bytes: 4), ifd >= 8,
              let count = reader.number(at: ifd, bytes: 2) else { return nil }
        let next = ifd + 2 + count * 12
        guard next + 4 <= tiff.count else { return nil }
        var edited = tiff
        if edited.count % 2 == 1 { edited.append(0) }  // an IFD starts on a word boundary
        let ifd1 = edited.count, entries = 3, data = ifd1 + 2 + entries * 12 + 4
        // The EXIF segment holds "Exif\0\0", the block, and its own two length bytes.
        guard data + thumbnail.count + 8 <= 0xFFFF else { return nil }
        func number(_ value: Int, bytes: Int) -> [UInt8] {
            let big = (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
            return reader.bigEndian ? big : big.reversed()
        }
        func entry(tag: Int, type: Int, value: [UInt8]) -> [UInt8] {
            number(tag, bytes: 2) + number(type, bytes: 2) + number(1, bytes: 4) + value + [UInt8](repeating: 0, count: 4 - value.count)
        }
        edited += number(entries, bytes: 2)
        edited += entry(tag: 0x0103, type: 3, value: number(6, bytes: 2))  // Compression: JPEG
        edited += entry(tag: 0x0201, type: 4, value: number(data, bytes: 4))  // where the JPEG starts
        edited += entry(tag: 0x0202, type: 4, value: number(thumbnail.count, bytes: 4))  // its length
        edited += number(0, bytes: 4) + thumbnail
        edited.replaceSubrange(next ..< next + 4, with: number(ifd1, bytes: 4))
        return edited
    }

    /// A TIFF block recording Orientation `value` (1–8) where it records one (a picture whose
    /// pixels were turned as displayed records 1); a block it cannot read is returned as it is.
    public static func settingOrientation(inExif tiff: [UInt8], to value: Int) -> [UInt8] {
        guard (1...8).contains(value), let reader = TIFFReader(tiff), let ifd = reader.number(at: 4, bytes: 4),
              let count = reader.number(at: ifd, bytes: 2) else { return tiff }
        for entry in 0..<count {
            let place = ifd + 2 + entry * 12
            guard let tag = reader.number(at: place, bytes: 2), place + 10 <= tiff.count else { return tiff }
            guard tag == 0x0112 else { continue }
            var edited = tiff
            edited.replaceSubrange(place + 8 ..< place + 10, with: reader.bigEndian ? [0, UInt8(value)] : [UInt8(value), 0])
            return edited
        }
        return tiff
    }

    /// The EXIF Orientation (1–8) recorded in a TIFF block, or `nil` when it records none.
    public static func orientation(inExif tiff: [UInt8]) -> Int? {
        guard let reader = TIFFReader(tiff), let ifd = reader.number(at: 4, bytes: 4),
              let count = reader.number(at: ifd, bytes: 2) else { return nil }
        for entry in 0..<count {
            let place = ifd + 2 + entry * 12
            guard let tag = reader.number(at: place, bytes: 2) else { return nil }
            if tag == 0x0112, let value = reader.number(at: place + 8, bytes: 2), (1...8).contains(value) { return value }
        }
        return nil
    }
}

/// Reads numbers of a TIFF block in its byte order, refusing any that runs past its end.
private struct TIFFReader {
    let tiff: [UInt8]
    let bigEndian: Bool

    init?(_ tiff: [UInt8]) {
        guard tiff.count >= 8 else { return nil }
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): bigEndian = true
        case (0x49, 0x49): bigEndian = false
        default: return nil
        }
        self.tiff = tiff
    }

    func number(at offset: Int, bytes: Int) -> Int? {
        guard offset >= 0, offset <= tiff.count - bytes else { return nil }
        let slice = tiff[offset ..< offset + bytes]
        return (bigEndian ? Array(slice) : slice.reversed()).reduce(0) { $0 << 8 | Int($1) }
    }
}
