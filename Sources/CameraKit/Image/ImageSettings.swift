/// How the session's picture looks and is framed: filters, colour adjustments, digital zoom,
/// aspect ratio, mirroring and rotation.
///
/// The filters, adjustments, zoom and aspect ratio apply alike to the preview, the frames and the
/// photos (a sepia preview gives a sepia photo). Mirroring and rotation turn the preview's pixels;
/// photos record them in their metadata (EXIF Orientation, `irot`/`imir` in HEIC). A running
/// session changes all of them without restarting its camera.
public struct ImageSettings: Sendable, Equatable {
    /// Filters applied in order; empty for none; at most ``maximumFilters``.
    public var filters: [ImageFilter] = []
    /// The most filters one picture takes: each is an element every frame passes through.
    public static let maximumFilters = 8
    /// Added to the brightness, from -1 (black) to 1 (white); 0 leaves it.
    public var brightness = 0.0
    /// Contrast, from 0 (flat grey) to 2; 1 leaves it.
    public var contrast = 1.0
    /// Colour saturation, from 0 (grey) to 2; 1 leaves it.
    public var saturation = 1.0
    /// Turns the hues around the colour circle, from -1 to 1 (a whole turn); 0 leaves them.
    public var hue = 0.0
    /// Digital zoom, from 1 (the whole frame) to 8: the frame is cropped around ``zoomCenter``
    /// and scaled back, so pictures keep their size.
    public var zoom = 1.0
    /// Where the zoom is centred, as fractions of the frame's width and height (0.5, 0.5 is the
    /// middle). The crop stays inside the frame.
    public var zoomCenter = ZoomCenter.middle
    /// The aspect ratio the frame is cropped to (around its centre), or `nil` for the camera's own.
    public var aspectRatio: AspectRatio?
    /// Whether the preview is mirrored left to right; `nil` mirrors system cameras (webcams face
    /// the person in front of them, as a phone's front camera) but not those that report facing
    /// back, nor the test camera or files.
    public var mirrorsPreview: Bool?
    /// Whether photos are mirrored like the preview (recorded in their orientation).
    public var mirrorsPhotos = false
    /// How far the picture is turned clockwise: 0, 90, 180 or 270 degrees. The preview is turned;
    /// photos record it in their orientation, added to ``PhotoSettings/rotation``.
    public var rotation = 0
    /// Whether photos are turned (and mirrored) in their pixels, instead of recording ``rotation``
    /// and ``mirrorsPhotos`` in their orientation for viewers to apply. (Tiled HEIC photos always
    /// record them.)
    public var turnsPhotoPixels = false
    /// A drawing laid over every frame, after the filters: a frame or a logo on every photo.
    /// Its position is in pixels of the camera's picture (after zoom and aspect ratio).
    public var overlay: DrawingOverlay?
    /// A green screen replaced by a picture, keyed before the filters: the subject in front of the
    /// picture in the preview, every photo and every movie.
    public var greenScreen: GreenScreen?
    /// Words drawn over every frame after the drawing, in order: captions and time stamps.
    public var texts: [TextMark] = []

    /// No filter, no adjustment, the whole frame, unrotated.
    public init() {}

    /// The ranges of the numeric settings, for checking and for help texts.
    public static let brightnessRange = -1.0...1.0
    public static let contrastRange = 0.0...2.0
    public static let saturationRange = 0.0...2.0
    public static let hueRange = -1.0...1.0
    public static let zoomRange = 1.0...8.0
    /// What one press of zoom in or out multiplies or divides the zoom by.
    public static let zoomStep = 1.25

    /// These settings with the filter after the one in use, in ``ImageFilter/allCases`` order
    /// (a chain counts as none), back to none after the last: what "next filter" means everywhere.
    public func withNextFilter() -> ImageSettings {
        let all = ImageFilter.allCases
        let current = filters.count == 1 ? all.firstIndex(of: filters[0]) : nil
        var next = self
        next.filters = [all[((current ?? all.firstIndex(of: .none) ?? 0) + 1) % all.count]].filter { $0 != .none }
        return next
    }

    /// These settings zoomed in or out by one ``zoomStep``, within ``zoomRange``.
    public func zoomed(in zoomingIn: Bool) -> ImageSettings {
        var zoomed = self
        zoomed.zoom = min(max(zoomingIn ? zoom * Self.zoomStep : zoom / Self.zoomStep, Self.zoomRange.lowerBound), Self.zoomRange.upperBound)
        return zoomed
    }

    /// Throws ``CaptureError/Code/invalidSetting`` naming the first setting out of its range.
    func validate() throws(CaptureError) {
        func check(_ value: Double, in range: ClosedRange<Double>, _ name: String) throws(CaptureError) {
            guard range.contains(value) else {
                throw CaptureError(.invalidSetting, "\(name) \(value) is out of range; use \(range.lowerBound) to \(range.upperBound)")
            }
        }
        guard filters.count <= Self.maximumFilters else {
            throw CaptureError(.invalidSetting, "\(filters.count) filters are more than the \(Self.maximumFilters) a picture takes")
        }
        try check(brightness, in: Self.brightnessRange, "the brightness")
        try check(contrast, in: Self.contrastRange, "the contrast")
        try check(saturation, in: Self.saturationRange, "the saturation")
        try check(hue, in: Self.hueRange, "the hue")
        try check(zoom, in: Self.zoomRange, "the zoom")
        try check(zoomCenter.x, in: 0...1, "the zoom centre's x")
        try check(zoomCenter.y, in: 0...1, "the zoom centre's y")
        for text in texts { try text.validate() }
        try greenScreen?.validate()
        guard [0, 90, 180, 270].contains(rotation) else {
            throw CaptureError(.invalidSetting, "a rotation of \(rotation) degrees is not 0, 90, 180 or 270")
        }
    }
}

/// A point of the frame as fractions of its width and height, from the top left.
public struct ZoomCenter: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The middle of the frame.
    public static let middle = ZoomCenter(x: 0.5, y: 0.5)
}

/// A picture's width to height, to crop frames to.
public struct AspectRatio: Sendable, Equatable, CustomStringConvertible {
    public let width: Int
    public let height: Int

    /// A ratio such as 16:9; both sides must be positive.
    public init(width: Int, height: Int) throws(CaptureError) {
        guard width > 0, height > 0 else {
            throw CaptureError(.invalidSetting, "the aspect ratio \(width):\(height) needs two positive numbers")
        }
        self.width = width
        self.height = height
    }

    /// Reads `W:H`, such as `4:3`, `16:9`, `3:2` or `1:1`.
    public init(parsing text: String) throws(CaptureError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw CaptureError(.invalidSetting, "the aspect ratio \"\(text)\" is not W:H, such as 4:3, 16:9, 3:2 or 1:1")
        }
        try self.init(width: width, height: height)
    }

    public var description: String { "\(width):\(height)" }

}
