import Formatting
import FoundationEssentials
import Glibc
import GStreamer

/// The format a camera runs at: encoding, size and frame rate.
public struct CaptureFormat: Sendable, Equatable, CustomStringConvertible {
    /// `video/x-raw` or a compressed type such as `image/jpeg`.
    public var mediaType: String
    /// The raw pixel format (`YUY2`, `I420`), `nil` for compressed formats.
    public var pixelFormat: String?
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Frames per second.
    public var frameRate: Fraction

    /// Makes a format.
    public init(mediaType: String = "video/x-raw", pixelFormat: String? = nil, width: Int, height: Int, frameRate: Fraction) {
        self.mediaType = mediaType
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    /// Whether the camera sends compressed frames (MJPEG) that must be decoded for preview.
    public var isCompressed: Bool { mediaType != "video/x-raw" }

    /// The caps that ask the camera for this format, in gst-launch syntax.
    public var capsDescription: String {
        var fields = [mediaType]
        if let pixelFormat { fields.append("format=\(pixelFormat)") }
        fields += ["width=\(width)", "height=\(height)", "framerate=\(frameRate)"]
        return fields.joined(separator: ",")
    }

    /// `1920x1080 MJPEG at 30 fps`.
    public var description: String {
        let encoding = mediaType == "image/jpeg" ? "MJPEG" : (pixelFormat ?? mediaType)
        return "\(width)x\(height) \(encoding) at \(FormatRequest.describe(frameRate)) fps"
    }
}

/// What size and frame rate a user asks for: a preset or an explicit `WxH[@FPS]`.
public struct FormatRequest: Sendable, Equatable, CustomStringConvertible {
    /// Width in pixels; `nil` takes the camera's largest.
    public var width: Int?
    /// Height in pixels; `nil` takes the camera's largest.
    public var height: Int?
    /// Frames per second; `nil` takes the highest the camera offers at that size.
    public var frameRate: Fraction?
    /// What the camera is to send: `video/x-raw` or `image/jpeg` (MJPEG); `nil` lets camctl choose.
    public var mediaType: String?
    /// Whether a camera that lacks the size runs at the largest size it offers within it (at the
    /// rate where it can) instead of being refused: true for the presets, which ask for the best
    /// up to their size, as a phone's session presets do; false for a size asked for exactly.
    public var fitsCamera: Bool

    /// Makes a request.
    public init(width: Int? = nil, height: Int? = nil, frameRate: Fraction? = nil, mediaType: String? = nil, fitsCamera: Bool = false) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.mediaType = mediaType
        self.fitsCamera = fitsCamera
    }

    /// The largest size the camera offers, for stills.
    public static let photo = FormatRequest()
    /// 1920x1080 at 30 fps, or the camera's best within it.
    public static let high = FormatRequest(width: 1920, height: 1080, frameRate: Fraction(30), fitsCamera: true)
    /// 1280x720 at 30 fps, or the camera's best within it.
    public static let medium = FormatRequest(width: 1280, height: 720, frameRate: Fraction(30), fitsCamera: true)
    /// 640x480 at 30 fps, or the camera's best within it.
    public static let low = FormatRequest(width: 640, height: 480, frameRate: Fraction(30), fitsCamera: true)

    /// Reads `photo`, `high`, `medium`, `low`, `WxH` or `WxH@FPS` (FPS may be `29.97` or `30000/1001`).
    public init(parsing text: String) throws(CaptureError) {
        switch text.lowercased() {
        case "photo": self = .photo; return
        case "high": self = .high; return
        case "medium": self = .medium; return
        case "low": self = .low; return
        default: break
        }
        let invalid = CaptureError(.invalidSetting,
            "\"\(text)\" is not a resolution; write WIDTHxHEIGHT or WIDTHxHEIGHT@FPS (1920x1080@30), or a preset: photo, high, medium, low")
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { throw invalid }
        let size = parts[0].lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]),
              (1...16384).contains(width), (1...16384).contains(height) else { throw invalid }
        self.init(width: width, height: height)
        if parts.count == 2 {
            guard let rate = FormatRequest.parseFrameRate(String(parts[1])) else { throw invalid }
            frameRate = rate
        }
    }

    private static func parseFrameRate(_ text: String) -> Fraction? {
        if let slash = text.firstIndex(of: "/") {
            guard let numerator = Int(text[..<slash]), let denominator = Int(text[text.index(after: slash)...]),
                  numerator > 0, denominator > 0 else { return nil }
            return Fraction(numerator, denominator)
        }
        guard let value = Double(text), value > 0, value <= 1000 else { return nil }
        if value == value.rounded() { return Fraction(Int(value)) }
        // NTSC rates: 29.97 is 30000/1001, 59.94 is 60000/1001.
        let ntsc = Fraction(Int((value * 1001).rounded()), 1001)
        return abs(ntsc.doubleValue - value) < 0.01 ? ntsc : Fraction(Int((value * 1000).rounded()), 1000)
    }

    /// `1920x1080@30`, `largest size`.
    public var description: String {
        var text = if let width, let height { "\(width)x\(height)" } else { "the largest size" }
        if let frameRate { text += " at \(FormatRequest.describe(frameRate)) fps" }
        if mediaType == "image/jpeg" { text += " as MJPEG" } else if mediaType != nil { text += " as raw video" }
        return text
    }

    /// `30`, `29.97`.
    public static func describe(_ rate: Fraction) -> String {
        rate.denominator == 1 ? "\(rate.numerator)" : String(printf: "%.2f", rate.doubleValue)
    }
}
