import Foundation
import PhotoLibrary
import TestSupport
import Testing

@Suite("Movies in the library: kept when finished, recovered when cut short, untouched while recorded", .startsPrograms)
struct MovieLibraryTests {
    /// A 2 s 320x240 fragmented movie (half-second fragments).
    private static let movieMade = Task { try await MovieFixture.movie(fragmentMilliseconds: 500) }
    /// A 2 s movie in fragments of half a second: a failure to make it fails the test that asks.
    static var movie: [UInt8] { get async throws { try await movieMade.value } }

    /// The library opened once no process holds a recording's lock: a child this test process
    /// forks meanwhile (another test's) holds a copy of the lock's descriptor for a moment, until it
    /// runs its program; the next opening, a moment later, finds the recording free.
    static func openedOnceUnlocked(_ folder: String, recording: String) async throws -> PhotoLibrary {
        var library = try PhotoLibrary(folder: folder)
        _ = try await until(every: .milliseconds(100), hangGuard: .seconds(60)) {
            if FileManager.default.fileExists(atPath: recording) { library = try PhotoLibrary(folder: folder) }
            return !FileManager.default.fileExists(atPath: recording)
        }
        return library
    }

    @Test("A finished recording becomes a movie: its row, length, size and thumbnail, beside the photos")
    func finished() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.path("library"))
        let recording = try library.beginRecording(capturedAt: Date())
        let bytes = try await Self.movie
        try Data(bytes).write(to: URL(fileURLWithPath: recording.path))
        let movie = try library.addMovie(recording, thumbnail: [0xFF, 0xD8, 0xFF, 0xD9], capturedAt: Date(), device: "Test camera",
                                         albums: ["party"])
        #expect(movie.kind == .movie && movie.codec == "h264" && movie.width == 320 && movie.height == 240)
        #expect(movie.duration == 2 && movie.byteCount == bytes.count && movie.albums == ["party"])
        #expect(movie.path.hasSuffix(".mp4") && !movie.path.contains("/recordings/") && FileManager.default.fileExists(atPath: movie.path))
        #expect(movie.thumbnailPath.map { FileManager.default.fileExists(atPath: $0) } == true)
        let reopened = try PhotoLibrary(folder: folder.path("library"))
        let listed = try reopened.photos()
        #expect(reopened.reconciliation.isEmpty && listed == [movie])
    }

    @Test("A recording held by its process is left alone by other openings; once let go, its whole fragments are kept")
    func cutShort() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.path("library"))
        var recording: PhotoLibrary.Recording? = try library.beginRecording(capturedAt: Date())
        let path = try #require(recording?.path)
        let whole = try await Self.movie
        let cut = Array(whole.prefix(whole.count * 2 / 3))
        try Data(cut).write(to: URL(fileURLWithPath: path))
        let meanwhile = try PhotoLibrary(folder: folder.path("library"))
        #expect(meanwhile.reconciliation.isEmpty && FileManager.default.fileExists(atPath: path))
        recording = nil  // the process ends: its lock goes
        let after = try await Self.openedOnceUnlocked(folder.path("library"), recording: path)
        let kept = try #require(after.reconciliation.recoveredMovies.first)
        #expect(kept.kind == .movie && kept.duration.map { $0 > 0 && $0 < 2 && ($0 * 2).rounded() == $0 * 2 } == true, "\(kept)")
        #expect(!FileManager.default.fileExists(atPath: path))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: kept.path)[.size] as? Int)
        #expect(size == kept.byteCount && size < cut.count)
        #expect(try after.photos().count == 1)
    }

    @Test("A recording cut before its first whole frame is removed, and only files named as recordings are touched")
    func nothingWhole() async throws {
        let folder = try TemporaryFolder()
        let library = try PhotoLibrary(folder: folder.path("library"))
        var recording: PhotoLibrary.Recording? = try library.beginRecording(capturedAt: Date())
        let path = try #require(recording?.path)
        let start = Data(try await Self.movie.prefix(40))
        try start.write(to: URL(fileURLWithPath: path))
        let mine = folder.path("library/recordings/my-own.mp4")
        try start.write(to: URL(fileURLWithPath: mine))
        recording = nil
        let after = try await Self.openedOnceUnlocked(folder.path("library"), recording: path)
        #expect(after.reconciliation.recoveredMovies.isEmpty && after.reconciliation.removedLeftovers == 1)
        #expect(!FileManager.default.fileExists(atPath: path) && FileManager.default.fileExists(atPath: mine))
        #expect(try after.photos().isEmpty)
    }
}
