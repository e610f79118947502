/// What a capture session runs: the camera, its format and the outputs.
///
/// Change it with ``CaptureSession/configure(_:)``, which applies all changes at once.
public struct SessionConfiguration: Sendable, Equatable {
    /// The camera.
    public var device: CaptureDevice = .testCamera()
    /// The size and frame rate to run the camera at; photos have this size.
    public var format: FormatRequest = .high
    /// The preview, or `nil` for none.
    public var preview: PreviewConfiguration?
    /// gst-launch fragments applied, in order, between the camera and every output (preview,
    /// frames, photos alike), such as `videobalance saturation=0`.
    public var filters: [String] = []
    /// Filters, colour adjustments, zoom, aspect ratio, mirroring and rotation; a running session
    /// changes them without restarting its camera.
    public var image = ImageSettings()
    /// The frames delivered to Swift, or `nil` for none.
    public var videoData: VideoDataConfiguration?
    /// The live picture as JPEG frames (for browsers), or `nil` for none.
    public var liveJPEG: LiveJPEGConfiguration?
    /// The live picture as H.264 (for RTSP), or `nil` for none.
    public var liveH264: LiveH264Configuration?
    /// Whether movies can be recorded (``MovieOutput``): the session then has the movie branch,
    /// shut while nothing is recorded.
    public var movies = false
    /// The bytes a burst may hold in frames and photos not yet delivered
    /// (``PhotoOutput/captureBurst(count:_:memoryBudget:each:)``); 32 MiB unless changed.
    public var burstMemoryBudget = PhotoOutput.defaultBurstMemoryBudget
    /// Whether the session can take photos: it then holds the newest full-size frame, so a photo
    /// is of the instant it was asked for (zero shutter lag). A session that takes none (a preview
    /// or a recording only) saves that frame's memory, and ``PhotoOutput`` refuses its captures.
    public var capturesPhotos = true
    /// Frames thrown away after each start or camera switch, while the camera settles (the first ones may come rotated or dark).
    public var framesDroppedAfterStart = 6
    /// Whether the session watches cameras being plugged in and unplugged while it runs on a
    /// system camera (events, and the loss of its own camera noticed at once). A one-shot capture
    /// has no use for it.
    public var watchesCameras = true
    /// Whether an interrupted session waits for its camera to come back and resumes by itself
    /// (see ``CaptureSession/resume(waitingAtMost:)``).
    public var resumesAutomatically = false
    /// Whether the first photo after a start or switch waits for exposure and colour to settle;
    /// `nil` takes it at once.
    public var exposureSettling: ExposureSettling? = ExposureSettling()
    /// Whether a DSLR's photos are deleted from its card once downloaded (they stay there unless asked).
    public var deletesFromCameraCard = false
    /// How long a DSLR may take to fire and write a photo (a long exposure, autofocus hunting)
    /// before the shot is given up; a photo it writes later stays on its card.
    public var cameraShotTimeout: Duration = .seconds(30)

    /// The test camera at 1920x1080, 30 fps, taking photos, without preview or frames.
    public init() {}

    /// The usual settings for `camera`: a system camera drops its first frames and lets its
    /// exposure settle before the first photo; the test camera and files, which need neither,
    /// give their first frame at once.
    public init(camera: CaptureDevice) {
        device = camera
        if case .system = camera.kind { return }
        framesDroppedAfterStart = 0
        exposureSettling = nil
    }
}

/// Where and how large the preview is shown.
public struct PreviewConfiguration: Sendable, Equatable {
    /// The sink: an element name (`autovideosink`, `ximagesink`, `xvimagesink`, `fakesink`) or a
    /// gst-launch description of one (`ximagesink display=:1`).
    public var sink: String
    /// The largest preview size; the frame is scaled down to fit, keeping its aspect ratio.
    public var maximumWidth: Int
    /// The largest preview height.
    public var maximumHeight: Int
    /// Whether the preview can draw text over the picture (``PreviewOutput/overlayText``, such as
    /// a countdown); off, the branch has no text element at all.
    public var showsText: Bool
    /// Whether the preview can show the last photo's thumbnail in its lower left corner
    /// (``PreviewOutput/showLastPhoto(_:)``); off, the branch has no element for it.
    public var showsLastPhoto: Bool
    /// Whether the preview can show a whole picture over the camera's (``PreviewOutput/showWhole(_:)``,
    /// a booth's result).
    public var showsPictures: Bool
    /// Whether the preview dims for a moment when a photo is taken (``PreviewOutput/showShutter()``);
    /// off, the branch has no element for it.
    public var showsShutter: Bool
    /// Whether the preview fills the whole screen, the picture scaled to it (a kiosk): a window
    /// of the session's own on X, waylandsink's full screen on Wayland; kmssink always fills it.
    /// A sink that shows no window (fakesink) cannot start so.
    public var fillsScreen: Bool
    /// Whether a picture smaller than the largest size is scaled up to it (a screen it fills).
    var scalesUp = false

    /// A preview in `sink`, at most 1280x720.
    public init(sink: String = "autovideosink", maximumWidth: Int = 1280, maximumHeight: Int = 720, showsText: Bool = false,
                showsLastPhoto: Bool = false, showsPictures: Bool = false, showsShutter: Bool = false, fillsScreen: Bool = false) {
        self.sink = sink
        self.maximumWidth = maximumWidth
        self.maximumHeight = maximumHeight
        self.showsText = showsText
        self.showsLastPhoto = showsLastPhoto
        self.showsPictures = showsPictures
        self.showsShutter = showsShutter
        self.fillsScreen = fillsScreen
    }
}

/// The frames delivered to Swift code.
public struct VideoDataConfiguration: Sendable, Equatable {
    /// The raw pixel format (`I420`, `RGB`, `BGRx`, `GRAY8`, …).
    public var pixelFormat: String

    /// Frames in `pixelFormat` at the capture size.
    public init(pixelFormat: String = "I420") {
        self.pixelFormat = pixelFormat
    }
}

extension SessionConfiguration {
    /// How a configuration differs from another: what a running session must change.
    enum Difference {
        /// Nothing.
        case none
        /// Only the camera: switched while running.
        case device
        /// Only the image settings: changed in the running pipeline.
        case image
        /// More: the pipeline is built anew.
        case more
    }

    func difference(from other: SessionConfiguration) -> Difference {
        var sameButDevice = self, sameButImage = self
        sameButDevice.device = other.device
        sameButImage.image = other.image
        if self == other { return .none }
        if sameButDevice == other { return .device }
        if sameButImage == other { return .image }
        return .more
    }
}
