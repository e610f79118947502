import Formatting
import Glibc
import Testing
import TestSupport

@Suite("strftime: a moment laid out as C and GNU date lay it out", .hangGuard(minutes: 3))
struct StrftimeTests {
    @Test("Fields, fractions of a second to the digits asked, and %% left alone")
    func layout() {
        // 2026-12-04 05:00:07.123456 UTC; the seconds are the same in every time zone.
        let moment = 1_796_360_407.123456
        var seconds = time_t(1_796_360_407), parts = tm()
        localtime_r(&seconds, &parts)
        #expect(String(strftime: "%Y-%m-%d", secondsSince1970: moment) == "\(parts.tm_year + 1900)-12-0\(parts.tm_mday)")
        #expect(String(strftime: "%S.%3N", secondsSince1970: moment) == "07.123")
        #expect(String(strftime: "%6N|%N|%1N", secondsSince1970: moment).hasPrefix("123456|123456"))
        #expect(String(strftime: "%%N %%3N 100%", secondsSince1970: moment) == "%N %3N 100%")
        #expect(String(strftime: "%0N", secondsSince1970: moment) == "%0N")
        #expect(String(strftime: "Nina", secondsSince1970: moment) == "Nina")
    }

    @Test("A layout longer than the limit gives nothing, never a cut text")
    func limit() {
        #expect(String(strftime: String(repeating: "%Y", count: 100), secondsSince1970: 0, limit: 50) == "")
        #expect(String(strftime: "", secondsSince1970: 0) == "")
    }
}
