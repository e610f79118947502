import HEIF
import Testing

/// Crafted HEIF files whose lengths, offsets and sums would overflow or point outside the file:
/// each is refused with a sentence, never a trap.
@Suite("Hostile HEIF files are refused, never a crash", .timeLimit(.minutes(1)))
struct HostileHEIFTests {
    static func box(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(8 + body.count)
        return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + body
    }

    static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func u64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(value >> (56 - 8 * UInt64($0)) & 0xFF) } }

    /// A file with one hvc1 item whose iloc (version 1, the given construction method, 8-byte
    /// offsets and lengths) lists `extents`.
    static func file(method: Int, extents: [(UInt64, UInt64)]) -> [UInt8] {
        let ftyp = box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
        let pitm = box("pitm", [0, 0, 0, 0] + u16(1))
        let infe = box("infe", [2, 0, 0, 0] + u16(1) + u16(0) + Array("hvc1".utf8) + [0])
        let iinf = box("iinf", [0, 0, 0, 0] + u16(1) + infe)
        var iloc: [UInt8] = [1, 0, 0, 0, 0x88, 0x00] + u16(1) + u16(1) + u16(method) + u16(0) + u16(extents.count)
        for (offset, length) in extents { iloc += u64(offset) + u64(length) }
        let meta = box("meta", [0, 0, 0, 0] + pitm + iinf + box("iloc", iloc))
        return ftyp + meta
    }

    @Test("Extents whose lengths add up past Int.max, in the file or in idat, are refused", arguments: [0, 1, 2])
    func overflowingSum(method: Int) {
        let bytes = Self.file(method: method, extents: [(0, 0x7FFF_FFFF_FFFF_FFFF), (0, 0x7FFF_FFFF_FFFF_FFFF)])
        #expect(bytes.count < 200)
        let error = #expect(throws: HEIFError.self) { try HEIFContents(parsing: bytes) }
        #expect(error?.message.contains("item 1") == true, "\(error?.message ?? "")")
    }

    @Test("An extent past the end of the file, and offsets that overflow, are refused")
    func outsideTheFile() {
        #expect(throws: HEIFError.self) { try HEIFContents(parsing: Self.file(method: 0, extents: [(100, 1_000_000)])) }
        #expect(throws: HEIFError.self) { try HEIFContents(parsing: Self.file(method: 0, extents: [(UInt64(Int64.max), 10)])) }
        #expect(throws: HEIFError.self) { try HEIFContents(parsing: Self.file(method: 9, extents: [(0, 1)])) }
    }

    @Test("Every prefix of a good file is read or refused, never a crash")
    func truncations() throws {
        let whole = HEIFContentsTests.file
        for length in stride(from: 0, to: whole.count, by: 7) {
            _ = try? HEIFContents(parsing: Array(whole.prefix(length)))
        }
        let good = Self.file(method: 1, extents: [(0, 10)])
        #expect(try HEIFContents(parsing: good).items.first?.dataLength == 10)
    }
}
