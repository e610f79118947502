/// What a server says of itself at `/api/status`, and a fleet node in its retained status (with
/// its fleet's fields and `state`). A field it cannot say is left out.
public struct StatusRecord: Codable, Sendable, Equatable {
    /// The vocabulary's version (`nil` only in a status read from a camctl older than it).
    public var version: Int? = WireJSON.version
    /// A node's: `online` or `offline`, its fleet and name, where its server is, camctl's version,
    /// its RTSP stream's address and its system clock.
    public var state: String?
    public var fleet: String?
    public var node: String?
    public var url: String?
    public var camctlVersion: String?
    public var rtspURL: String?
    public var clock: ClockRecord?
    /// The camera: its name and id, the session's state, its format and picture settings.
    public var device: String?
    public var deviceID: String?
    public var status: String?
    public var format: FormatRecord?
    public var filter: String?
    public var zoom: Double?
    /// Who watches, and what the live picture has cost: clients of the live picture and the
    /// events, frames encoded and passed on, the camera's frames.
    public var viewers: Int?
    public var eventClients: Int?
    public var framesEncoded: Int?
    public var framesPassedThrough: Int?
    public var h264FramesEncoded: Int?
    public var cameraFrames: Int?
    /// Whether requests need the token, and the photos in the library.
    public var tokenRequired: Bool?
    public var photos: Int?
    /// Bytes free for the library on its disk.
    public var freeBytes: Int64?
    /// A fleet node's small live picture (at most 320 pixels wide), a new JPEG at each request:
    /// a link that needs no token, as a photo's download link, for its controller's rig page.
    public var tileURL: String?
    /// The printer the `print` action prints on, when the server has one.
    public var printer: String?
    /// Why guests' phones cannot open the QR codes' links, when they cannot: one sentence.
    public var guestWarning: String?
    /// Whether guests can have a picture e-mailed to them (`serve --mail-server`).
    public var mail: Bool?

    public init() {}

    enum CodingKeys: String, CodingKey {
        case version, state, fleet, node, url, clock, device, status, format, filter, zoom, viewers, photos, printer, mail
        case camctlVersion = "camctl_version", rtspURL = "rtsp_url", deviceID = "device_id", eventClients = "event_clients"
        case framesEncoded = "frames_encoded", framesPassedThrough = "frames_passed_through", h264FramesEncoded = "h264_frames_encoded"
        case cameraFrames = "camera_frames", tokenRequired = "token_required", guestWarning = "guest_warning"
        case freeBytes = "free_bytes", tileURL = "tile_url"
    }
}

/// A camera's format as a status tells it.
public struct FormatRecord: Codable, Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// Frames a second.
    public var fps: Double

    public init(width: Int, height: Int, fps: Double) {
        (self.width, self.height, self.fps) = (width, height, fps)
    }
}

/// What the kernel says of a node's system clock: whether a time daemon keeps it synchronized,
/// the offset still being corrected, and the largest and estimated errors, in seconds.
public struct ClockRecord: Codable, Sendable, Equatable {
    public var synchronized: Bool
    public var offset: Double
    public var maximumError: Double
    public var estimatedError: Double

    public init(synchronized: Bool, offset: Double, maximumError: Double, estimatedError: Double) {
        (self.synchronized, self.offset, self.maximumError, self.estimatedError) = (synchronized, offset, maximumError, estimatedError)
    }

    enum CodingKeys: String, CodingKey {
        case synchronized
        case offset = "offset_s", maximumError = "max_error_s", estimatedError = "estimated_error_s"
    }
}
