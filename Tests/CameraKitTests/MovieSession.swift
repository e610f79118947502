import CameraKit
import GStreamer

extension CaptureSession {
    /// A started session of the test camera at 320x240, 30 fps, that records movies.
    static func startedForMovies() async throws -> CaptureSession {
        var configuration = SessionConfiguration()
        configuration.device = .testCamera()
        configuration.format = FormatRequest(width: 320, height: 240, frameRate: Fraction(30))
        configuration.movies = true
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        return session
    }
}
