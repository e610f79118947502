import HEIF
import TestSupport
import Testing

/// Crafted HEIF files whose lengths, offsets and sums would overflow or point outside the file:
/// each is refused with a sentence, never a trap.
@Suite("Hostile HEIF files are refused, never a crash", .computes)
struct HostileHEIFTests {
    @Test("Extents whose lengths add up past Int.max, in the file or in idat, are refused", arguments: [0, 1, 2])
    func overflowingSum(method: Int) async {
        let bytes = HostileBytes.heif(method: method, extents: [(0, 0x7FFF_FFFF_FFFF_FFFF), (0, 0x7FFF_FFFF_FFFF_FFFF)])
        #expect(bytes.count < 200)
        let error = #expect(throws: HEIFError.self) { try HEIFContents(parsing: bytes) }
        #expect(error?.message.contains("item 1") == true, "\(error?.message ?? "")")
    }

    @Test("An extent past the end of the file, and offsets that overflow, are refused")
    func outsideTheFile() async {
        #expect(throws: HEIFError.self) { try HEIFContents(parsing: HostileBytes.heif(method: 0, extents: [(100, 1_000_000)])) }
        #expect(throws: HEIFError.self) { try HEIFContents(parsing: HostileBytes.heif(method: 0, extents: [(UInt64(Int64.max), 10)])) }
        #expect(throws: HEIFError.self) { try HEIFContents(parsing: HostileBytes.heif(method: 9, extents: [(0, 1)])) }
    }

    @Test("Every prefix of a good file is read or refused, never a crash")
    func truncations() async throws {
        let whole = try await HEIFContentsTests.file
        for length in stride(from: 0, to: whole.count, by: 7) {
            _ = try? HEIFContents(parsing: Array(whole.prefix(length)))
        }
        let good = HostileBytes.heif(method: 1, extents: [(0, 10)])
        #expect(try HEIFContents(parsing: good).items.first?.dataLength == 10)
    }
}
