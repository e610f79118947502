import CameraKit
import Foundation
import TestSupport
import Testing

@Suite("A movie's sound from a microphone that goes quiet", .startsPrograms)
struct MovieSoundTests {
    /// Records the test camera at 320x240 with `audio` to `path` until the recording ends by
    /// itself; the movie, and how long it all took.
    private static func recordUntilItEnds(with audio: MovieAudio, into path: String) async throws -> (movie: RecordedMovie, took: Duration) {
        let session = try await CaptureSession.startedForMovies()
        let started = ContinuousClock.now
        try await session.movieOutput.startRecording(to: path, MovieSettings(maximumDuration: 30, audio: audio))
        await session.movieOutput.recordingEnded()
        let movie = try await session.movieOutput.stopRecording()
        await session.stop()
        return (movie, ContinuousClock.now - started)
    }

    /// The kinds of a movie's streams, as ffprobe reads them.
    private static func streams(of path: String) async throws -> ChildProcess.Result {
        try await ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", path])
    }

    @Test("A microphone that stops sending without an error ends the recording 2 s later, the movie kept with its sound so far")
    func silentMicrophone() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("quiet.mp4")
        // Six seconds of sound, then its stream ends: no error, no more sound. (Sound before the
        // movie's first frame is left out, and a loaded CI run took over three seconds to that frame.)
        let quiet = MovieAudio.custom(description: "audiotestsrc is-live=true samplesperbuffer=480 num-buffers=600")
        let (movie, took) = try await Self.recordUntilItEnds(with: quiet, into: path)
        // Six seconds of sound and two of silence, and the picture's start and end: a loaded run took 18 s.
        #expect(took > .seconds(7.5) && took < .seconds(60), "ended after \(took)")
        let failure = try #require(movie.failure, "\(movie.ending)")
        #expect(failure.message.contains("the microphone sent no sound for 2 seconds"), "\(failure.message)")
        #expect(movie.hasSound)
        // The file is cut to its whole fragments by the library; as written, ffprobe reads both streams.
        let probed = try await Self.streams(of: path)
        #expect(probed.standardOutput.contains("video") && probed.standardOutput.contains("audio"), "\(probed.standardOutput) \(probed.standardError)")
    }

    @Test("A microphone whose little sound all came before the first frame still leaves a movie that players read")
    func soundBeforeTheFirstFrame() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("early.mp4")
        // A hundredth of a second of sound, heard as the recording starts, before its first frame.
        let early = MovieAudio.custom(description: "audiotestsrc is-live=true samplesperbuffer=480 num-buffers=1")
        _ = try await Self.recordUntilItEnds(with: early, into: path)
        let probed = try await Self.streams(of: path)
        #expect(probed.status == 0 && probed.standardOutput.contains("video") && probed.standardOutput.contains("audio"),
                "\(probed.standardOutput) \(probed.standardError)")
    }
}
