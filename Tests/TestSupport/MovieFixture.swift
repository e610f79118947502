import Foundation

/// Small MP4 movies made by gst-launch-1.0, for the readers of movies.
public enum MovieFixture {
    /// A 2 s 320x240 movie at 30 fps (60 frames, a key frame every 15), in fragments of
    /// `fragmentMilliseconds` (0: unfragmented, its sample table in the movie box).
    public static func movie(fragmentMilliseconds: Int) async throws -> [UInt8] {
        let folder = try TemporaryFolder()
        let path = folder.path("movie.mp4")
        let result = try await ChildProcess.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=60", "!",
                                                              "video/x-raw,format=I420,width=320,height=240,framerate=30/1", "!",
                                                              "x264enc", "key-int-max=15", "!", "h264parse", "!", "mp4mux",
                                                              "fragment-duration=\(fragmentMilliseconds)", "!", "filesink", "location=\(path)"])
        guard result.status == 0 else { throw ChildProcess.Failure(message: "gst-launch-1.0 made no movie: \(result.standardError)") }
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
