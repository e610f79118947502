import GStreamer
import HEIF

/// An HEVC encoder for stills (x265, Main Still Picture, 8-bit 4:2:0) kept playing between
/// captures, so only the first photo pays its start-up. Every picture it makes is an intra
/// picture that decodes on its own. Frames are encoded in their own colours (range and matrix:
/// a webcam's JPEG frames in JPEG's full-range BT.601, video frames in their limited range),
/// which its stream's VUI says: converting them would round every sample once more.
final class HEVCStillEncoder: Sendable {
    /// What the encoder makes: the picture size and the quality, or tiles of a size.
    struct Key: Hashable, Sendable {
        let width: Int
        let height: Int
        let quality: Int
        /// Tiles cut from each frame and encoded at constant QP (so all tiles match in quality),
        /// `width`x`height` each, instead of one picture of the frame.
        var isTiled = false
        /// How whole pictures are turned first (a `videoflip` method), for photos turned in their pixels.
        var turn = "none"
        var effort = HEVCEffort.quick
    }

    private let transform: AppPipeline
    private let key: Key

    /// x265's constant rate factor for a quality from 1 to 100: 90 (the default) is CRF 22, the
    /// value HEIF stills are usually made at; 100 is CRF 12; 1 is CRF 51, x265's lowest quality.
    static func rateFactor(forQuality quality: Int) -> Int {
        let clamped = min(100, max(1, quality))
        return clamped >= 90 ? 22 - (clamped - 90) : 22 + (90 - clamped) * 29 / 89
    }

    /// The smallest picture side x265 encodes.
    static let minimumSide = 16

    /// Builds and starts an encoder for pictures of one size and quality.
    init(_ key: Key) async throws(CaptureError) {
        guard key.width >= Self.minimumSide, key.height >= Self.minimumSide else {
            throw CaptureError(.invalidSetting, "a \(key.width)x\(key.height) picture is smaller than the \(Self.minimumSide)x\(Self.minimumSide) "
                + "the HEVC encoder needs; choose a larger resolution, or JPEG")
        }
        self.key = key
        let factor = Self.rateFactor(forQuality: key.quality)
        do {
            transform = try await AppPipeline(describing: """
                appsrc name=input format=time ! \(key.isTiled ? "videobox name=tile" : "videoflip video-direction=\(ExifOrientation.direction(ofMethod: key.turn)) ! videoscale") \
                ! videoconvert \
                ! video/x-raw,format=I420,width=\(key.width),height=\(key.height),pixel-aspect-ratio=1/1 \
                ! x265enc speed-preset=\(key.effort.preset) option-string="\(key.isTiled ? "qp" : "crf")=\(factor):info=0\(key.effort.options)" \
                ! h265parse ! video/x-h265,stream-format=hvc1,alignment=au,profile=main-still-picture \
                ! appsink name=output sync=false
                """, label: "encoder.hevc")
        } catch {
            throw CaptureError.converting(error, context: Self.failedStart)
        }
    }

    /// What a failed start says: where x265 comes from, when it is missing.
    private static var failedStart: String {
        GStreamerRuntime.hasElement("x265enc") ? "the HEVC encoder could not start"
            : "the HEVC encoder could not start (is gstreamer1.0-plugins-bad with x265 installed?)"
    }

    /// Encodes one frame at the encoder's size.
    func encode(_ frame: Sample) async throws(CaptureError) -> HEVCPicture {
        try await transform.run { [unowned self] () throws(CaptureError) in try encodeNow(frame) }
    }

    /// Cuts the frame into tiles of the encoder's size, rows first, and encodes each; tiles past
    /// the frame's right and bottom edges are filled with black.
    func encodeTiles(of frame: Sample, width: Int, height: Int) async throws(CaptureError) -> (tiles: [HEVCPicture], columns: Int) {
        let columns = (width + key.width - 1) / key.width, rows = (height + key.height - 1) / key.height
        let tiles = try await transform.run { [unowned self] () throws(CaptureError) in
            var tiles: [HEVCPicture] = []
            for row in 0..<rows {
                for column in 0..<columns {
                    try cut(x: column * key.width, y: row * key.height, frameWidth: width, frameHeight: height)
                    tiles.append(try encodeNow(frame))
                }
            }
            return tiles
        }
        return (tiles, columns)
    }

    /// Sets the tile cutter to the tile at `x`,`y` (negative crops add a border).
    private func cut(x: Int, y: Int, frameWidth: Int, frameHeight: Int) throws(CaptureError) {
        guard let tile = transform.pipeline.element(named: "tile") else { throw CaptureError(.pipeline, "the tile encoder has no cutter") }
        do {
            try tile.setProperty("left", x)
            try tile.setProperty("top", y)
            try tile.setProperty("right", frameWidth - x - key.width)
            try tile.setProperty("bottom", frameHeight - y - key.height)
        } catch {
            throw CaptureError.converting(error, context: "the tile could not be cut")
        }
    }

    private func encodeNow(_ frame: Sample) throws(CaptureError) -> HEVCPicture {
        do {
            try transform.input.push(frame)
            // The parser may hand out the parameter sets on their own before the picture; the
            // picture is the first access unit with a slice in it.
            // A minute is a hang, not a slow machine: a 12-MP picture took over 30 s beside a
            // loaded test run's other encoders.
            for _ in 0..<4 {
                guard let encoded = transform.output.pullSample(timeout: .seconds(60)), let buffer = encoded.buffer else {
                    throw CaptureError(.timeout, "the HEVC encoder gave no picture within 60 seconds")
                }
                guard let configuration = encoded.caps?.structures.first?["codec_data"]?.bytesValue else {
                    throw CaptureError(.pipeline, "the HEVC encoder gave no decoder configuration (codec_data)")
                }
                let picture = HEVCPicture(configuration: configuration, accessUnit: try buffer.bytes(), width: key.width, height: key.height)
                if picture.holdsPicture { return picture }
            }
            throw CaptureError(.pipeline, "the HEVC encoder gave access units without a picture")
        } catch {
            throw CaptureError.converting(error, context: "the photo could not be encoded as HEVC")
        }
    }

    func stop() async {
        await transform.stop()
    }
}
