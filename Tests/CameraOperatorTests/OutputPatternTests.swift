import CameraOperator
import FoundationEssentials
import PhotoLibrary
import Testing
import TestSupport

@Suite("Output patterns: a path for each picture", .hangGuard(minutes: 3))
struct OutputPatternTests {
    @Test("%d is the number, %0Nd zero-padded to at most 20 digits, %t the capture time, %% a percent sign; anything else stays as written")
    func paths() {
        let date = Date(timeIntervalSince1970: 1_764_478_892.123)
        let cases: [(String, String)] = [
            ("photo-%d.jpg", "photo-7.jpg"), ("photo-%04d.jpg", "photo-0007.jpg"), ("%1d", "7"),
            ("%030d", String(repeating: "0", count: 19) + "7"), ("%t.jpg", PhotoLibrary.fileStamp(date) + ".jpg"),
            ("100%%-%d", "100%-7"), ("%%d", "%d"), ("plain.jpg", "plain.jpg"), ("%x.jpg", "%x.jpg"), ("end%", "end%"), ("end%12", "end%12"),
            ("été-%d", "été-7"),
        ]
        for (pattern, path) in cases {
            #expect(OutputPattern(pattern).path(number: 7, date: date) == path, "\(pattern)")
        }
    }

    @Test("A pattern names each picture when it has a counter or a time that its path puts in, numbers each only with a counter; a percent sign written as %% is neither")
    func namesEachPicture() {
        for pattern in ["a-%d.jpg", "a-%04d.jpg", "%t.jpg", "%%%d"] { #expect(OutputPattern(pattern).namesEachPicture, "\(pattern)") }
        for pattern in ["a.jpg", "%%d.jpg", "%%t", "100%", "%x"] { #expect(!OutputPattern(pattern).namesEachPicture, "\(pattern)") }
        #expect(OutputPattern("a-%03d.jpg").numbersEachPicture && !OutputPattern("a-%t.jpg").numbersEachPicture && !OutputPattern("%%d").numbersEachPicture)
    }

    @Test("A counter asking for more than 20 digits is named, however many it asks for")
    func overwideCounter() {
        #expect(OutputPattern("a-%021d.jpg").overwideCounter == "%021d")
        #expect(OutputPattern("a-%99999999999999999999999d").overwideCounter == "%99999999999999999999999d")
        for pattern in ["a-%020d.jpg", "a-%d", "%%30d", "%30x"] { #expect(OutputPattern(pattern).overwideCounter == nil, "\(pattern)") }
    }
}
