import GStreamer

/// A camera: a V4L2 or system camera, the built-in test camera, or a file used as a camera.
public struct CaptureDevice: Sendable, Equatable, CustomStringConvertible {
    /// Where the frames come from.
    public enum Kind: Sendable, Equatable {
        /// GStreamer's test source with a pattern (`smpte`, `ball`, …); the frames move.
        case testPattern(String)
        /// A still image or a video file, played as a live camera (an image repeats).
        case file(path: String)
        /// Any GStreamer source a person describes in gst-launch syntax (`videotestsrc pattern=ball`,
        /// `rtspsrc location=… ! decodebin`), brought to the capture format.
        case custom(description: String)
        /// A camera the system reports, reached through V4L2, libcamera or PipeWire (`api`), read
        /// by the source element in gst-launch syntax (`source`, such as `pipewiresrc target-object=42`).
        case system(path: String?, api: String, source: String)
        /// A DSLR or mirrorless camera driven through libgphoto2: its live view is the picture,
        /// and its own shutter takes the photos.
        case gphoto2(model: String, port: String)
    }

    /// Where the camera faces, where the system says.
    public enum Position: String, Sendable, Equatable {
        case front, back, external, unspecified
    }

    /// The name the command line accepts for this camera (`test`, `/dev/video0`, `file:/x.jpg`).
    public let id: String
    /// The name to show a person.
    public let name: String
    /// Where the frames come from.
    public let kind: Kind
    /// Where the camera faces.
    public let position: Position
    /// The formats, sizes and frame rates it offers.
    public let capabilities: [VideoCapability]

    /// The built-in test camera, with a pattern (`smpte` unless given).
    public static func testCamera(pattern: String = "smpte") -> CaptureDevice {
        CaptureDevice(
            id: pattern == "smpte" ? "test" : "test:\(pattern)", name: "Test camera (\(pattern))",
            kind: .testPattern(pattern), position: .unspecified,
            // Raw frames, and MJPEG like a webcam's (encoded in the source), for testing both paths.
            capabilities: [
                VideoCapability(mediaType: "video/x-raw", pixelFormat: "I420", widths: 1...16384, heights: 1...16384,
                                frameRates: .range(Fraction(1)...Fraction(1000))),
                VideoCapability(mediaType: "image/jpeg", pixelFormat: nil, widths: 16...8192, heights: 16...8192,
                                frameRates: .range(Fraction(1)...Fraction(1000))),
            ])
    }

    /// An image or video file used as a camera.
    public static func file(_ path: String) -> CaptureDevice {
        CaptureDevice(
            id: "file:\(path)", name: "File \(path)", kind: .file(path: path), position: .unspecified,
            capabilities: [])
    }

    /// A DSLR or mirrorless camera libgphoto2 found, named `gphoto2:PORT` (`gphoto2:usb:001,004`).
    public static func gphoto2(model: String, port: String) -> CaptureDevice {
        // Its live view, decoded to whatever size the session asks for.
        CaptureDevice(id: "gphoto2:\(port)", name: model, kind: .gphoto2(model: model, port: port), position: .external,
                      capabilities: [VideoCapability(mediaType: "image/jpeg", pixelFormat: nil, widths: 16...8192, heights: 16...8192,
                                                     frameRates: .range(Fraction(1)...Fraction(60)))])
    }

    /// A source described in gst-launch syntax, used as a camera.
    public static func custom(_ description: String) -> CaptureDevice {
        CaptureDevice(id: "custom", name: "Custom source", kind: .custom(description: description), position: .unspecified,
                      capabilities: [])
    }

    /// A camera the device monitor found (V4L2 or libcamera; PipeWire's come from ``PipeWireCameras``).
    init(_ device: Device) {
        let path = device.path
        id = path ?? device.displayName
        name = device.displayName
        let source = device.sourceDescription ?? "v4l2src" + (path.map { " device=\($0)" } ?? "")
        let api = source.hasPrefix("libcamerasrc") ? "libcamera" : device.api ?? "v4l2"
        kind = .system(path: path, api: api, source: source)
        capabilities = device.capabilities
        let location = device.properties?["api.libcamera.location"]?.stringValue
            ?? device.properties?["device.position"]?.stringValue
        position = switch location {
        case "front": .front
        case "back": .back
        case "external": .external
        default: .unspecified
        }
    }

    init(id: String, name: String, kind: Kind, position: Position, capabilities: [VideoCapability]) {
        self.id = id
        self.name = name
        self.kind = kind
        self.position = position
        self.capabilities = capabilities
    }

    /// Whether this is the built-in test camera.
    public var isTestCamera: Bool {
        if case .testPattern = kind { return true }
        return false
    }

    /// `name (id)`.
    public var description: String { "\(name) (\(id))" }

    public static func == (lhs: CaptureDevice, rhs: CaptureDevice) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind
    }
}
