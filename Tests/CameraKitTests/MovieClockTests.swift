@testable import CameraKit
import GStreamer
import Testing
import TestSupport

@Suite("A movie's clock: frame times as the file stores them", .hangGuard(minutes: 3))
struct MovieClockTests {
    /// A time's ticks of the movie's clock, as the muxer stores it.
    private func ticks(_ time: ClockTime) -> UInt64 {
        (time.nanoseconds * MovieWriter.ticksPerSecond + 500_000_000) / 1_000_000_000
    }

    @Test("Frames on a rate's grid keep their times exactly, at every common rate")
    func gridTimesAreExact() async {
        for (numerator, denominator) in [(24, 1), (25, 1), (30, 1), (30000, 1001), (50, 1), (60, 1)] {
            var previous: ClockTime?
            for frame in 0..<600 {
                let elapsed = UInt64(frame) * 1_000_000_000 * UInt64(denominator) / UInt64(numerator)
                let time = MovieWriter.movieTime(elapsed, after: previous)
                #expect(ticks(time) * UInt64(numerator) == UInt64(frame) * MovieWriter.ticksPerSecond * UInt64(denominator),
                        "frame \(frame) at \(numerator)/\(denominator) fps dated \(time)")
                previous = time
            }
        }
    }

    @Test("Frames that come together, or out of order, are a tick apart in the file")
    func framesTogetherAreApart() async {
        let first = MovieWriter.movieTime(1_000_000_000, after: nil)
        let together = MovieWriter.movieTime(1_000_000_001, after: first)
        let earlier = MovieWriter.movieTime(900_000_000, after: together)
        #expect(ticks(first) == 90_000)
        #expect(ticks(together) == 90_001)
        #expect(ticks(earlier) == 90_002)
    }

    @Test("A frame a hair before a length is dated at the length, as the file will have it")
    func roundsToTheNearestTick() async {
        #expect(MovieWriter.movieTime(1_999_999_000, after: nil) == ClockTime(nanoseconds: 2_000_000_000))
        #expect(ticks(MovieWriter.movieTime(1_999_990_000, after: nil)) == 179_999)
    }

    @Test("Days of recording neither overflow nor drift")
    func longRecordings() async {
        let week: UInt64 = 7 * 24 * 3600 * 1_000_000_000
        #expect(MovieWriter.movieTime(week, after: nil) == ClockTime(nanoseconds: week))
    }
}
