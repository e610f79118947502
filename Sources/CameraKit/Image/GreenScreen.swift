import GStreamer
import ImageMetadata

/// A green (or blue, or any colour's) screen behind the subject, replaced by a picture: GStreamer's
/// `alpha` element keys the colour out of every frame, and the picture shows where it was, live on
/// the preview and in every photo and movie.
///
/// `alpha` keys by hue: a colour whose hue lies within ``tolerance`` degrees of the key's and that
/// is saturated enough counts as the screen; ``softness`` widens the soft edge between subject and
/// screen. It also takes the key's colour out of the subject's edges, so hair in front of a green
/// screen does not keep a green fringe (spill).
public struct GreenScreen: Sendable, Equatable {
    /// The picture shown behind the subject: a JPEG or PNG, cropped around its middle to the
    /// picture's shape and scaled to its size.
    public let path: String
    /// The background picture's own size, and its bytes as read when it was chosen.
    public let width: Int
    public let height: Int
    let picture: [UInt8]
    /// The screen's colour.
    public var key = Key.green
    /// How far, in degrees of hue, a colour may be from the key's and still count as the screen: 1 to 90.
    public var tolerance = 35.0
    /// The width of the soft edge around the subject, from 0 to 64 (`alpha`'s noise level).
    public var softness = 2.0

    /// A screen's colour: pure green or blue, or a colour sampled from the screen as lit.
    public enum Key: Sendable, Equatable {
        case green, blue
        case color(RGBColor)

        /// `green`, `blue`, or another colour's name or `#RRGGBB`.
        public init(parsing text: String) throws(CaptureError) {
            switch text.lowercased() {
            case "green": self = .green
            case "blue": self = .blue
            default: self = .color(try RGBColor(setting: text))
            }
        }
    }

    public static let toleranceRange = 1.0...90.0
    public static let softnessRange = 0.0...64.0
    /// The largest background picture read, in bytes.
    public static let maximumFileSize = 64 * 1_048_576

    /// Reads the background's size from its JPEG or PNG header (a PNG's chunks checked too), without decoding it.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` when the file is missing, unreadable or not a
    ///   regular file; ``CaptureError/Code/unreadableFile`` when it is neither picture, is damaged, or
    ///   is larger than ``maximumFileSize`` or ``PNGHeader/maximumPixels``.
    public init(path: String) throws(CaptureError) {
        let bytes = try SettingFile.contents(of: path, naming: "the background", limit: Self.maximumFileSize)
        try self.init(bytes, path: path)
    }

    /// Reads the picture `name` of `folder` as ``init(path:)`` does, never through a link: a
    /// background chosen from a folder of them.
    public init(named name: String, in folder: String) throws(CaptureError) {
        let bytes = try SettingFile.contents(named: name, in: folder, naming: "the background", folderName: "the backgrounds' folder",
                                             limit: Self.maximumFileSize)
        try self.init(bytes, path: folder + "/" + name)
    }

    private init(_ bytes: [UInt8], path: String) throws(CaptureError) {
        (width, height) = try PictureHeader.size(of: bytes, naming: "the background \(path)")
        (self.path, picture) = (path, bytes)
    }

    public static func == (left: GreenScreen, right: GreenScreen) -> Bool {
        (left.path, left.width, left.height, left.key, left.tolerance, left.softness)
            == (right.path, right.width, right.height, right.key, right.tolerance, right.softness)
    }

    /// Throws ``CaptureError/Code/invalidSetting`` naming a setting out of its range.
    func validate() throws(CaptureError) {
        guard Self.toleranceRange.contains(tolerance) else {
            throw CaptureError(.invalidSetting, "a key tolerance of \(tolerance) degrees is out of range; use 1 to 90")
        }
        guard Self.softnessRange.contains(softness) else {
            throw CaptureError(.invalidSetting, "a key softness of \(softness) is out of range; use 0 to 64")
        }
    }

    /// The `alpha` element keying the screen out, then the element whose frames the backdrop is laid under.
    var keying: String {
        let method = switch key {
        // Between pure green and standard chroma green (#00B140), so the default tolerance takes
        // both, and every green screen lit between them, while skin, white and yellow stay.
        case .green: "method=custom target-r=0 target-g=185 target-b=55"
        case .blue: "method=blue"
        case .color(let color): "method=custom target-r=\(color.red) target-g=\(color.green) target-b=\(color.blue)"
        }
        return "videoconvert ! alpha \(SessionElement.key.assignment) \(method) angle=\(tolerance) noise-level=\(softness) "
            + "! video/x-raw,format=AYUV ! identity \(SessionElement.backdrop.assignment) ! videoconvert ! video/x-raw,format=I420"
    }

    /// The background decoded, cropped around its middle to `width` by `height`'s shape and scaled to
    /// it, as AYUV; decoded by GStreamer on a lane of its own.
    ///
    /// - Throws: ``CaptureError/Code/unreadableFile`` when it cannot be read or decoded.
    func backdrop(width: Int, height: Int) async throws(CaptureError) -> Backdrop {
        let bytes = picture
        do {
            try PictureBudget.check(bytes)
        } catch {
            throw CaptureError(.unreadableFile, "the background cannot be used: \(error.message)")
        }
        let decoder = JPEGFile.dimensions(of: bytes) != nil ? "image/jpeg ! jpegdec" : "image/png ! pngdec"
        var started: AppPipeline?
        do {
            let decoding = try await AppPipeline(describing: """
                appsrc name=input caps=\(decoder) ! videoconvert ! aspectratiocrop aspect-ratio=\(width)/\(height) ! videoscale \
                ! videoconvert ! video/x-raw,format=AYUV,width=\(width),height=\(height),pixel-aspect-ratio=1/1 \
                ! appsink name=output sync=false
                """, label: "background")
            started = decoding
            let picture = try bytes.withUnsafeBytes { try Buffer(copying: $0) }
            let sample = try await decoding.transform([picture], timeout: .seconds(60))[0]
            try await decoding.pipeline.stop()
            started = nil
            guard let pixels = try sample?.buffer?.bytes(), pixels.count >= width * height * 4 else {
                throw CaptureError(.unreadableFile, "the background \(path) could not be decoded; it is damaged")
            }
            return Backdrop(pixels: pixels, width: width, height: height)
        } catch let error as CaptureError {
            await started?.stop()
            throw error
        } catch {
            await started?.stop()
            throw CaptureError(.unreadableFile, "the background \(path) could not be decoded; it is damaged", debugInfo: (error as? GStreamerError)?.debugInfo)
        }
    }
}
