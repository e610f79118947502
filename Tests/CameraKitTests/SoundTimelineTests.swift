@testable import CameraKit
import GStreamer
import Testing

/// A time of so many milliseconds.
private func ms(_ value: UInt64) -> ClockTime { ClockTime(nanoseconds: value * 1_000_000) }

@Suite("A recording's sound on its movie's timeline")
struct SoundTimelineTests {
    /// A timeline whose microphone started 500 ms after the session, with the first frame at 2 s.
    static func started() -> SoundTimeline {
        let sound = SoundTimeline()
        sound.align(microphone: ms(1000), session: ms(1500))
        sound.started(at: ms(2000))
        return sound
    }

    @Test("Sound from the first frame on is dated from it; sound before it, or before any frame, is left out")
    func start() {
        let sound = SoundTimeline()
        sound.align(microphone: ms(1000), session: ms(1500))
        #expect(sound.movieTime(ofSoundAt: ms(1600), lasting: ms(10)) == nil, "no frame yet")
        sound.started(at: ms(2000))
        #expect(sound.movieTime(ofSoundAt: ms(1490), lasting: ms(10)) == nil, "before the first frame")
        #expect(sound.movieTime(ofSoundAt: ms(1500), lasting: ms(10)) == ms(0))
        #expect(sound.movieTime(ofSoundAt: ms(1510), lasting: ms(10)) == ms(10))
    }

    @Test("A pause leaves sound out until the first frame after it, then dates it less the span the frames left out")
    func pause() {
        let sound = Self.started()
        #expect(sound.movieTime(ofSoundAt: ms(2500), lasting: ms(10)) == ms(1000))
        sound.pause()
        #expect(sound.movieTime(ofSoundAt: ms(3000), lasting: ms(10)) == nil)
        #expect(sound.movieTime(ofSoundAt: ms(4000), lasting: ms(10)) == nil, "resumed, but no frame since")
        sound.resumed(pausedSpan: ms(2000).nanoseconds)  // the frames left 2 s of the session's time out
        #expect(sound.movieTime(ofSoundAt: ms(4510), lasting: ms(10)) == ms(1010))
    }

    @Test("Sound already in the movie (heard before a pause whose frames ended sooner) is not put in twice")
    func overlap() {
        let sound = Self.started()
        #expect(sound.movieTime(ofSoundAt: ms(2500), lasting: ms(20)) == ms(1000))
        sound.pause()
        sound.resumed(pausedSpan: ms(1000).nanoseconds)
        #expect(sound.movieTime(ofSoundAt: ms(3500), lasting: ms(10)) == nil, "ends where the sound had reached")
        #expect(sound.movieTime(ofSoundAt: ms(3515), lasting: ms(10)) == ms(1015), "overlaps in part: kept")
    }

    @Test("No sound after the movie's end, which it is told to have reached once sound passes it")
    func end() {
        let sound = Self.started()
        #expect(sound.movieTime(ofSoundAt: ms(3490), lasting: ms(5)) == ms(1990))
        sound.ends(at: ms(2000))
        #expect(!sound.reachedEnd)
        #expect(sound.movieTime(ofSoundAt: ms(3500), lasting: ms(10)) == nil)
        #expect(sound.reachedEnd)
    }
}
