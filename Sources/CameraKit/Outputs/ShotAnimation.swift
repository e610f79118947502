import FileSystem
import GIF
import GStreamer
import Glibc
import ImageMetadata

/// A booth's shots as a short clip for phones: H.264 in MP4 (moov first, so it plays while it
/// downloads), the shots in turn (or forwards then backwards, a boomerang), played over a few times
/// so a player that does not loop still shows it as one; or an animated GIF of the shots in turn,
/// which every viewer plays over for ever.
public enum ShotAnimation {
    public enum Style: String, Sendable, CaseIterable {
        /// The shots in turn, each for 0.6 s, three times.
        case mp4
        /// The shots forwards then backwards, each for 0.3 s, four times.
        case boomerang
        /// The shots in turn, each for 0.6 s, as an animated GIF that loops.
        case gif
    }

    /// A clip made: its file (MP4 or GIF), picture size and length.
    public struct Clip: Sendable {
        public let data: [UInt8]
        /// `h264` (an MP4 file) or `gif`.
        public let codec: String
        public let width: Int
        public let height: Int
        public let duration: Double
    }

    /// The clip's frame rate.
    static let frameRate = 10

    /// How a clip shows its pictures: in what order, how many frames each stays, how many times
    /// over, and whether as a GIF.
    struct Sequence {
        let order: [Int]
        let framesEach: Int
        let rounds: Int
        let isGIF: Bool
    }

    /// The order the shots are shown in, and how many frames each stays.
    static func sequence(shots count: Int, style: Style) -> Sequence {
        switch style {
        case .mp4: Sequence(order: Array(0..<count), framesEach: 6, rounds: 3, isGIF: false)
        case .gif: Sequence(order: Array(0..<count), framesEach: 6, rounds: 1, isGIF: true)
        case .boomerang: Sequence(order: there(count) + back(count), framesEach: 3, rounds: 4, isGIF: false)
        }
    }

    private static func there(_ count: Int) -> [Int] { Array(0..<count) }
    /// Back from the last but one to the second: with ``there(_:)``, a loop that repeats no end.
    private static func back(_ count: Int) -> [Int] { Array((1..<max(1, count - 1)).reversed()) }

    /// Makes the clip from JPEG shots of one size (a booth's thumbnails), `width` pixels wide.
    ///
    /// - Throws: A ``CaptureError`` when there are no shots, or one cannot be decoded or encoded.
    public static func make(_ shots: [[UInt8]], style: Style, width: Int = 640, folder: String) async throws(CaptureError) -> Clip {
        try await make(shots, sequence: sequence(shots: shots.count, style: style), width: width, folder: folder)
    }

    /// A rig's bullet time: the photos of one instant from cameras side by side, one frame each
    /// at 10 frames a second, swept there and back (twice in an MP4; a GIF loops it for ever),
    /// `width` pixels wide.
    ///
    /// - Throws: A ``CaptureError`` when there are no photos, or one cannot be decoded or encoded.
    public static func sweep(_ photos: [[UInt8]], asGIF: Bool, width: Int = 640, folder: String) async throws(CaptureError) -> Clip {
        let sequence = Sequence(order: there(photos.count) + back(photos.count), framesEach: 1, rounds: asGIF ? 1 : 2, isGIF: asGIF)
        return try await make(photos, sequence: sequence, width: width, folder: folder)
    }

    private static func make(_ shots: [[UInt8]], sequence: Sequence, width: Int, folder: String) async throws(CaptureError) -> Clip {
        guard let first = shots.first, let size = JPEGFile.dimensions(of: first), size.width > 0 else {
            throw CaptureError(.invalidSetting, "there are no shots to animate, or the first is not a JPEG")
        }
        let height = max(2, (width * size.height / size.width) / 2 * 2)
        if sequence.isGIF { return try await gif(of: shots, sequence: sequence, width: width, height: height) }
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
        let (order, framesEach, rounds) = (sequence.order, sequence.framesEach, sequence.rounds)
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
        return Clip(data: data, codec: "h264", width: width, height: height, duration: Double(frames) / Double(frameRate))
    }

    /// The shots in the sequence's order as an animated GIF: decoded and scaled by GStreamer, one
    /// palette chosen for them all, each shown for the sequence's frames.
    private static func gif(of shots: [[UInt8]], sequence: Sequence, width: Int, height: Int) async throws(CaptureError) -> Clip {
        let (order, framesEach) = (sequence.order, sequence.framesEach)
        let centiseconds = framesEach * 100 / frameRate
        var started: AppPipeline?
        do {
            let decoder = try await AppPipeline(describing: """
                appsrc name=input caps=image/jpeg ! jpegdec ! videoconvert ! videoscale \
                ! video/x-raw,format=RGB,width=\(width),height=\(height),pixel-aspect-ratio=1/1 ! appsink name=output sync=false
                """, label: "animation")
            started = decoder
            let buffers = try shots.map { shot in try shot.withUnsafeBytes { try Buffer(copying: $0) } }
            // Decoding and the GIF's encoding (its palette, its compression) run on the pipeline's
            // lane, off Swift's cooperative threads.
            let data = try await decoder.run { () throws(CaptureError) -> [UInt8] in
                var pictures: [[UInt8]] = []
                for buffer in buffers {
                    do {
                        try decoder.input.push(buffer)
                    } catch {
                        throw CaptureError.converting(error, context: "a shot could not be decoded for the animation")
                    }
                    guard let sample = decoder.output.pullSample(timeout: .seconds(30)), let picture = rgb(of: sample, width: width, height: height) else {
                        throw CaptureError(.unreadableFile, "a shot could not be decoded for the animation")
                    }
                    pictures.append(picture)
                }
                return AnimatedGIF.encode(order.map { pictures[$0] }, width: width, height: height, centiseconds: [centiseconds])
            }
            await decoder.stop()
            started = nil
            return Clip(data: data, codec: "gif", width: width, height: height, duration: Double(order.count * centiseconds) / 100)
        } catch let error as CaptureError {
            await started?.stop()
            throw error
        } catch {
            await started?.stop()
            throw CaptureError.converting(error, context: "the animation could not be made")
        }
    }

    /// A decoded RGB picture's pixels, rows packed (a row of the sample may be padded).
    private static func rgb(of sample: Sample, width: Int, height: Int) -> [UInt8]? {
        guard let stride = sample.videoInfo?.planes.first?.stride, stride >= width * 3 else { return nil }
        return try? sample.withUnsafeBytes { bytes -> [UInt8]? in
            guard bytes.count >= stride * (height - 1) + width * 3 else { return nil }
            var packed = [UInt8](repeating: 0, count: width * height * 3)
            for row in 0..<height {
                let from = row * stride
                packed.withUnsafeMutableBytes { target in
                    target.baseAddress!.advanced(by: row * width * 3).copyMemory(from: bytes.baseAddress!.advanced(by: from), byteCount: width * 3)
                }
            }
            return packed
        }
    }
}
