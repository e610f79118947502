import CameraKit
import Foundation
import Glibc
import TestSupport
import Testing

@Suite("A movie whose encoder falls behind the camera", .startsPrograms)
struct MovieLostFramesTests {
    @Test("Frames the movie's queue lets go while the file cannot be written are counted, and the preview goes on")
    func stalledWriterLosesCountedFrames() async throws {
        // The movie is written into a pipe that is not read for 4 s of the camera's frames: the
        // muxer, the encoder and the movie's queue (2 s of frames) fill, and the queue lets frames go.
        let folder = try TemporaryFolder()
        let path = folder.path("stalled.mp4")
        #expect(mkfifo(path, 0o600) == 0)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let session = try await CaptureSession.startedForMovies()
        try await session.movieOutput.startRecording(to: path, MovieSettings(maximumDuration: 6))
        let first = session.cameraFrameCount
        #expect(await until { session.cameraFrameCount >= first + 120 })
        // Photos are taken from the other branches while the movie's stalls.
        let photo = try await session.photoOutput.capture()
        #expect(!photo.fileData.isEmpty)
        let drained = Self.readToTheEnd(reader)
        await session.movieOutput.recordingEnded()
        let movie = try await session.movieOutput.stopRecording()
        await session.stop()
        let bytes = await drained.value
        #expect(bytes > 0)
        // Six seconds of a 30 fps camera: what the movie has and what it lost are all its frames
        // (those let go after its last frame are past its end, and not counted).
        #expect(movie.lostFrameCount >= 10, "\(movie.lostFrameCount) lost, \(movie.frameCount) kept")
        #expect((180...181).contains(movie.frameCount + movie.lostFrameCount), "\(movie.lostFrameCount) lost, \(movie.frameCount) kept")
    }

    /// Reads the pipe on a thread of its own until its writer closes it; the bytes read.
    private static func readToTheEnd(_ descriptor: Int32) -> Task<Int, Never> {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let done = AsyncStream<Int>.makeStream()
        Thread.detachNewThread {
            var total = 0
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(descriptor, &chunk, chunk.count)
                if count > 0 { total += count } else if count == 0 || errno != EINTR { break }
            }
            done.continuation.yield(total)
            done.continuation.finish()
        }
        return Task { await done.stream.first { _ in true } ?? 0 }
    }
}
