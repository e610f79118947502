import FileSystem
import GStreamer
import Glibc
import ImageMetadata

/// A booth's shots as a short clip for phones: H.264 in MP4 (moov first, so it plays while it
/// downloads), the shots in turn (or forwards then backwards, a boomerang), played over a few times
/// so a player that does not loop still shows it as one.
public enum ShotAnimation {
    public enum Style: String, Sendable, CaseIterable {
        /// The shots in turn, each for 0.6 s, three times.
        case mp4
        /// The shots forwards then backwards, each for 0.3 s, four times.
        case boomerang
    }

    /// A clip made: its MP4 file, picture size and length.
    public struct Clip: Sendable {
        public let data: [UInt8]
        public let width: Int
        public let height: Int
        public let duration: Double
    }

    /// The clip's frame rate.
    static let frameRate = 10

    /// The order the shots are shown in, and how many frames each stays.
    static func sequence(shots count: Int, style: Style) -> (order: [Int], framesEach: Int, rounds: Int) {
        switch style {
        case .mp4: (Array(0..<count), 6, 3)
        case .boomerang: (Array(0..<count) + Array((1..<max(1, count - 1)).reversed()), 3, 4)
        }
    }

    /// Makes the clip from JPEG shots of one size (a booth's thumbnails), `width` pixels wide.
    ///
    /// - Throws: A ``CaptureError`` when there are no shots, or one cannot be decoded or encoded.
    public static func make(_ shots: [[UInt8]], style: Style, width: Int = 640, folder: String) async throws(CaptureError) -> Clip {
        guard let first = shots.first, let size = JPEGFile.dimensions(of: first), size.width > 0 else {
            throw CaptureError(.invalidSetting, "there are no shots to animate, or the first is not a JPEG")
        }
        let height = max(2, (width * size.height / size.width) / 2 * 2)
        // Named as the library's temporary files are, so one left by a process killed meanwhile is
        // removed when the library next opens.
        let path = folder + "/.animation-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp"
        defer { unlink(path) }
        let description = "appsrc name=input caps=image/jpeg,framerate=\(frameRate)/1 format=time ! jpegdec ! videoconvert ! videoscale "
            + "! video/x-raw,format=I420,width=\(width),height=\(height),pixel-aspect-ratio=1/1 "
            + "! x264enc speed-preset=medium pass=qual quantizer=24 key-int-max=\(frameRate * 2) ! video/x-h264,profile=high "
            + "! h264parse ! mp4mux faststart=true ! filesink location=\"\(path)\""
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline(describing: description)
        } catch {
            throw CaptureError.converting(error, context: "the clip's encoder could not be built")
        }
        guard let source = pipeline.element(named: "input", as: AppSource.self) else {
            throw CaptureError(.pipeline, "the clip's encoder has no app source")
        }
        let (order, framesEach, rounds) = sequence(shots: shots.count, style: style)
        let frame = ClockTime(nanoseconds: 1_000_000_000 / UInt64(frameRate))
        var frames = 0
        do {
            try await pipeline.beginStateChange(to: .playing)
            let buffers = try shots.map { shot in
                try shot.withUnsafeBytes { try Buffer(copying: $0, presentationTime: .zero, duration: frame) }
            }
            for _ in 0..<rounds {
                for index in order {
                    for _ in 0..<framesEach {
                        try source.push(buffers[index], at: ClockTime(nanoseconds: UInt64(frames) * frame.nanoseconds), duration: frame)
                        frames += 1
                    }
                }
            }
            try source.endOfStream()
            try await pipeline.waitForEndOfStream(timeout: .seconds(60))
            try await pipeline.stop()
        } catch {
            try? await pipeline.stop()
            throw CaptureError.converting(error, context: "the clip could not be made")
        }
        guard let data = try? RegularFile.contents(of: path) else { throw CaptureError(.pipeline, "the clip's file could not be read back") }
        return Clip(data: data, width: width, height: height, duration: Double(frames) / Double(frameRate))
    }
}
