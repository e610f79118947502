/// Bytes written to break camctl's readers, for the suites that give them to a reader or to camctl.
public enum HostileBytes {
    /// An ISO BMFF box: its size, its type and its body.
    public static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        big(UInt32(8 + body.count)) + Array(type.utf8) + body
    }

    /// A HEIF file with one hvc1 item whose iloc (version 1, the given construction method, 8-byte
    /// offsets and lengths) lists `extents` as (offset, length).
    public static func heif(method: Int, extents: [(UInt64, UInt64)]) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let pitm = box("pitm", [0, 0, 0, 0] + u16(1))
        let infe = box("infe", [2, 0, 0, 0] + u16(1) + u16(0) + Array("hvc1".utf8) + [0])
        let iinf = box("iinf", [0, 0, 0, 0] + u16(1) + infe)
        var iloc: [UInt8] = [1, 0, 0, 0, 0x88, 0x00] + u16(1) + u16(1) + u16(method) + u16(0) + u16(extents.count)
        for (offset, length) in extents { iloc += big(offset) + big(length) }
        return ftyp + box("meta", [0, 0, 0, 0] + pitm + iinf + box("iloc", iloc))
    }

    /// A HEIF file of under 200 bytes whose two extents (construction method 1) are
    /// 0x7FFFFFFFFFFFFFFF bytes each: their sum overflows.
    public static let overflowingHEIF = heif(method: 1, extents: [(0, 0x7FFF_FFFF_FFFF_FFFF), (0, 0x7FFF_FFFF_FFFF_FFFF)])

    /// A PNG signature and IHDR chunk (with its CRC, or a wrong one) for a picture of this size.
    public static func pngHeader(width: UInt32, height: UInt32, depth: UInt8 = 8, colour: UInt8 = 6, breakCRC: Bool = false) -> [UInt8] {
        let body = Array("IHDR".utf8) + big(width) + big(height) + [depth, colour, 0, 0, 0]
        let crc = crc32(body) ^ (breakCRC ? 1 : 0)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + big(UInt32(13)) + body + big(crc)
    }

    /// The CRC-32 that PNG chunks carry, computed bit by bit.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc = UInt32.max
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    private static func big<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> (T.bitWidth - 8 - 8 * $0)) }
    }
}
