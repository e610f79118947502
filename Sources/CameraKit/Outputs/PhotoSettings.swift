/// How a photo is to be taken, as AVCapturePhotoSettings says it.
public struct PhotoSettings: Sendable, Equatable {
    /// The file format of the photo.
    public enum Codec: String, Sendable, Equatable, CaseIterable {
        case jpeg
        case hevc
    }

    /// Whether the flash fires.
    public enum FlashMode: String, Sendable, Equatable, CaseIterable {
        /// Never.
        case off
        /// Always; an error on a camera without a flash.
        case on
        /// When the camera decides; never on a camera without a flash.
        case auto
    }

    /// Which frame to take, trading speed for quality.
    public enum QualityPrioritization: String, Sendable, Equatable, CaseIterable {
        /// The frame on screen at the request (zero shutter lag).
        case speed
        /// The frame on screen at the request (zero shutter lag).
        case balanced
        /// The first frame taken at or after the request, which may wait up to one frame interval.
        case quality
    }

    /// The file format: JPEG, or HEVC in a HEIF (`.heic`) file.
    public var codec: Codec = .jpeg
    /// Quality, 1 to 100: the JPEG quality, or for HEVC x265's rate factor (90 is CRF 22, 100 is
    /// CRF 12, 1 is CRF 51).
    public var quality: Int = 90
    /// For HEVC: the picture as a grid of 512x512 tiles (as iPhones write it, each tile within HEVC
    /// level 3 for decoders with level limits) rather than one picture (level 6 at 12 MP).
    public var usesHEVCTiles = false
    /// How far the picture is turned clockwise for display (0, 90, 180 or 270 degrees), recorded
    /// in the photo's metadata (EXIF Orientation, and `irot` in HEIC) without turning the pixels.
    public var rotation: Int = 0
    /// Whether the flash fires.
    public var flashMode: FlashMode = .auto
    /// Which frame to take.
    public var prioritization: QualityPrioritization = .balanced
    /// The longest side of the embedded preview (thumbnail) in pixels; `nil` for none.
    public var thumbnailMaximumSide: Int? = 320
    /// For HEVC, as AVFoundation's deferred photo processing: the photo comes at once as a JPEG
    /// proxy with its frame kept (``Photo/pendingHEVC``), and the HEIC is encoded later, with
    /// x265 settings that take longer and make smaller files; otherwise the HEIC is encoded now.
    public var defersHEVCProcessing = false

    /// Default settings: JPEG at quality 90, flash auto, balanced, 320-pixel thumbnail.
    public init() {}
}

/// The settings a capture actually used.
public struct ResolvedPhotoSettings: Sendable, Equatable {
    /// The photo's width in pixels.
    public let width: Int
    /// The photo's height in pixels.
    public let height: Int
    /// The file format.
    public private(set) var codec: PhotoSettings.Codec
    /// The thumbnail's width, 0 without a thumbnail.
    public let thumbnailWidth: Int
    /// The thumbnail's height, 0 without a thumbnail.
    public let thumbnailHeight: Int
    /// Whether the flash fired.
    public let isFlashFired: Bool
    /// The JPEG quality used.
    public let quality: Int
    /// The frame choice used.
    public let prioritization: PhotoSettings.QualityPrioritization
    /// The clockwise rotation recorded for display: the photo's and the session's together.
    public private(set) var rotation: Int
    /// Whether the photo is recorded as mirrored left to right (before the rotation).
    public private(set) var isMirrored: Bool

    /// The EXIF orientation that records ``rotation`` and ``isMirrored``.
    public var exifOrientation: Int { ExifOrientation(rotation: rotation, mirrored: isMirrored).value }
    /// Whether the photo is the camera's own JPEG (an MJPEG camera at its own size), stored
    /// without a decode and a second encode; ``quality`` then did not apply.
    public private(set) var isCameraJPEG = false

    /// The longest side of the thumbnail asked for.
    private let thumbnailMaximumSide: Int?

    /// Resolves settings for a frame size, whether the flash fires, and the session's orientation.
    /// What `settings` resolve to for a picture of `width` by `height` (the thumbnail scaled to
    /// fit its maximum side), with the flash fired or not, turned by the session's rotation too,
    /// and mirrored.
    public init(_ settings: PhotoSettings, width: Int, height: Int, flashFires: Bool = false, sessionRotation: Int = 0, mirrored: Bool = false) {
        self.width = width
        self.height = height
        codec = settings.codec
        quality = settings.quality
        prioritization = settings.prioritization
        isFlashFired = flashFires
        rotation = (settings.rotation + sessionRotation) % 360
        isMirrored = mirrored
        thumbnailMaximumSide = settings.thumbnailMaximumSide
        if let side = settings.thumbnailMaximumSide, side > 0, width > 0, height > 0 {
            let scale = min(1, Double(side) / Double(max(width, height)))
            // Even sizes, as 4:2:0 encoders want.
            thumbnailWidth = max(2, Int((Double(width) * scale / 2).rounded()) * 2)
            thumbnailHeight = max(2, Int((Double(height) * scale / 2).rounded()) * 2)
        } else {
            thumbnailWidth = 0
            thumbnailHeight = 0
        }
    }

    /// The same settings for a picture of another size (and its thumbnail scaled to match).
    func resized(width: Int, height: Int) -> ResolvedPhotoSettings {
        var settings = PhotoSettings()
        settings.codec = codec
        settings.quality = quality
        settings.prioritization = prioritization
        settings.thumbnailMaximumSide = thumbnailMaximumSide
        var resized = ResolvedPhotoSettings(settings, width: width, height: height, flashFires: isFlashFired)
        resized.rotation = rotation
        resized.isMirrored = isMirrored
        resized.isCameraJPEG = isCameraJPEG
        return resized
    }

    /// How the encoders turn the pixels (a `videoflip` method), for a photo whose orientation is
    /// applied to its pixels; `nil` when it is recorded instead.
    private(set) var pixelTurn: String?

    /// The same settings with the orientation applied to the pixels: the size turned with them, and
    /// the orientation recorded as upright.
    func turningPixels() -> ResolvedPhotoSettings {
        let orientation = ExifOrientation(rotation: rotation, mirrored: isMirrored)
        guard orientation.value != 1 else { return self }
        var result = orientation.swapsSides ? resized(width: height, height: width) : self
        result.rotation = 0
        result.isMirrored = false
        result.pixelTurn = orientation.showing
        return result
    }

    /// The same settings, for the JPEG proxy of a photo whose HEIC is made later.
    func proxy() -> ResolvedPhotoSettings {
        var copy = self
        copy.codec = .jpeg
        return copy
    }

    /// The same settings, for a photo that is the camera's own JPEG.
    func usingCameraJPEG() -> ResolvedPhotoSettings {
        var copy = self
        copy.isCameraJPEG = true
        return copy
    }
}
