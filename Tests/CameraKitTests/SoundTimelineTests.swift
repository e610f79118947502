@testable import CameraKit
import GStreamer
import Testing
import TestSupport

/// A time of so many milliseconds.
private func ms(_ value: UInt64) -> ClockTime { ClockTime(nanoseconds: value * 1_000_000) }

@Suite("A recording's sound on its movie's timeline", .hangGuard(minutes: 3))
struct SoundTimelineTests {
    /// A timeline whose microphone started 500 ms after the session, with the first frame at 2 s.
    static func started() -> SoundTimeline {
        let sound = SoundTimeline()
        sound.align(microphone: ms(1000), session: ms(1500))
        sound.started(at: ms(2000))
        return sound
    }

    @Test("Sound from the first frame on is dated from it; sound before it, or before any frame, is left out")
    func start() async {
        let sound = SoundTimeline()
        sound.align(microphone: ms(1000), session: ms(1500))
        #expect(sound.movieTime(ofSoundAt: ms(1600), lasting: ms(10)) == nil, "no frame yet")
        sound.started(at: ms(2000))
        #expect(sound.movieTime(ofSoundAt: ms(1490), lasting: ms(10)) == nil, "before the first frame")
        #expect(sound.movieTime(ofSoundAt: ms(1500), lasting: ms(10)) == ms(0))
        #expect(sound.movieTime(ofSoundAt: ms(1510), lasting: ms(10)) == ms(10))
    }

    @Test("A pause leaves sound out until the first frame after it, then dates it less the span the frames left out")
    func pause() async {
        let sound = Self.started()
        #expect(sound.movieTime(ofSoundAt: ms(2500), lasting: ms(10)) == ms(1000))
        sound.pause()
        #expect(sound.movieTime(ofSoundAt: ms(3000), lasting: ms(10)) == nil)
        #expect(sound.movieTime(ofSoundAt: ms(4000), lasting: ms(10)) == nil, "resumed, but no frame since")
        sound.resumed(pausedSpan: ms(2000).nanoseconds)  // the frames left 2 s of the session's time out
        #expect(sound.movieTime(ofSoundAt: ms(4510), lasting: ms(10)) == ms(1010))
    }

    @Test("Sound already in the movie (heard before a pause whose frames ended sooner) is not put in twice")
    func overlap() async {
        let sound = Self.started()
        #expect(sound.movieTime(ofSoundAt: ms(2500), lasting: ms(20)) == ms(1000))
        sound.pause()
        sound.resumed(pausedSpan: ms(1000).nanoseconds)
        #expect(sound.movieTime(ofSoundAt: ms(3500), lasting: ms(10)) == nil, "ends where the sound had reached")
        #expect(sound.movieTime(ofSoundAt: ms(3515), lasting: ms(10)) == ms(1015), "overlaps in part: kept")
    }

    @Test("No sound after the movie's end, which it is told to have reached once sound passes it")
    func end() async {
        let sound = Self.started()
        #expect(sound.movieTime(ofSoundAt: ms(3490), lasting: ms(5)) == ms(1990))
        sound.ends(at: ms(2000))
        #expect(!sound.reachedEnd)
        #expect(sound.movieTime(ofSoundAt: ms(3500), lasting: ms(10)) == nil)
        #expect(sound.reachedEnd)
    }
    /// A sound buffer of 10 ms.
    private static func buffer() throws -> Buffer {
        try Buffer(count: 1920, presentationTime: .zero, duration: ms(10)) { $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    @Test("Sound waits for the frames to reach its time, then goes in in order; what waits at the end goes in up to the end only")
    func waitsForFrames() async throws {
        let sound = Self.started()
        #expect(sound.hold(try Self.buffer(), at: ms(0), duration: ms(10)).isEmpty, "no frame yet")
        #expect(sound.hold(try Self.buffer(), at: ms(10), duration: ms(10)).isEmpty)
        sound.framesReach(ms(33))
        let ready = sound.hold(try Self.buffer(), at: ms(20), duration: ms(10))
        #expect(ready.map(\.time) == [ms(0), ms(10), ms(20)])
        #expect(sound.hold(try Self.buffer(), at: ms(40), duration: ms(10)).isEmpty, "past the frames")
        #expect(sound.hold(try Self.buffer(), at: ms(50), duration: ms(10)).isEmpty)
        sound.ends(at: ms(45))
        #expect(sound.heldBeforeEnd().map(\.time) == [ms(40)], "sound past the last frame stays out")
        #expect(sound.heldBeforeEnd().isEmpty)
    }

    @Test("Sound held for frames that do not come goes in after three seconds of it, oldest first")
    func framesThatDoNotCome() async throws {
        let sound = Self.started()
        for step in 0..<300 { #expect(sound.hold(try Self.buffer(), at: ms(UInt64(step) * 10), duration: ms(10)).isEmpty) }
        #expect(sound.hold(try Self.buffer(), at: ms(3010), duration: ms(10)).map(\.time) == [ms(0)])
    }
}
