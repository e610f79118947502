import Formatting
import Testing
import TestSupport

@Suite("Numbers laid out as printf lays them out", .hangGuard(minutes: 3))
struct PrintfTests {
    @Test("Decimals, signs, shortest forms and hexadecimal, with a point whatever the locale")
    func layouts() async {
        #expect(String(printf: "%.3f s", 1.5) == "1.500 s")
        #expect(String(printf: "%+.1f ms", -2.25) == "-2.2 ms")
        #expect(String(printf: "%g", 5.0) == "5")
        #expect(String(printf: "0x%08x", UInt32(0x98_0900)) == "0x00980900")
        #expect(String(printf: "skew %.1f ms over %ld nodes", 3.25, 20) == "skew 3.2 ms over 20 nodes")
        #expect(String(printf: "") == "")
        #expect(String(printf: "%.0f", 1e300).count == 301, "long results are not cut")
    }
}

@Suite("Text laid out: trimmed ends, padded columns", .hangGuard(minutes: 3))
struct TextLayoutTests {
    @Test("Whitespace or chosen characters go from both ends only; columns are padded, never cut")
    func layout() async {
        #expect("  keep me \t\n".trimmed() == "keep me")
        #expect(" \n ".trimmed() == "")
        #expect("\"~/Pictures\"".trimmed { $0 == "\"" } == "~/Pictures")
        #expect("secret \n\n".trimmed(where: \.isNewline) == "secret ")
        #expect("ab".padded(to: 4) == "ab  " && "abcdef".padded(to: 4) == "abcdef")
    }
}
