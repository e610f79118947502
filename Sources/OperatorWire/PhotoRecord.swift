/// A photo (or a movie) of the library, or one just delivered, as every front end writes it:
/// what `--json` prints, a `--metadata` sidecar holds, the HTTP API answers and a fleet node
/// publishes. `id` and `thumbnail_path` are always written (`null` when there is none); other
/// fields only when they say something.
public struct PhotoRecord: Codable, Sendable, Equatable {
    /// `photo` or `movie`.
    public var kind: String
    /// The file, in the library or where it was written.
    public var path: String
    /// Its number in the library; `nil` when it was not put in one.
    public var id: Int64?
    public var width: Int
    public var height: Int
    /// `jpeg`, `hevc`, `h264`, …
    public var codec: String
    /// The frame's instant, ISO 8601 in UTC with milliseconds, and in microseconds since 1970.
    public var capturedAt: String
    public var capturedAtMicroseconds: Int64
    /// The camera's name, and its id when the camera is at hand.
    public var device: String
    public var deviceID: String?
    /// The file's size.
    public var bytes: Int
    /// The EXIF orientation, 1–8.
    public var orientation: Int
    /// The library's thumbnail of it.
    public var thumbnailPath: String?
    /// `processing` while a HEIC is still being made from its proxy, else `final`.
    public var state: String
    /// The albums it is in (library listings).
    public var albums: [String]?
    /// A movie's length in seconds.
    public var duration: Double?
    /// The JPEG quality it was encoded at, whether the flash fired, whether it is a booth's
    /// composition, and the copy written beside the library (`--output`).
    public var quality: Int?
    public var flashFired: Bool?
    public var composed: Bool?
    public var output: String?
    /// The RAW file the camera wrote beside the photo (a DSLR set to RAW+JPEG), kept in the library.
    public var rawPath: String?
    /// A HEIC's items, told by `library show`.
    public var heifItems: String?
    /// What a server adds: the guest's download link (a path), the file's SHA-256, and where to
    /// download the file and its thumbnail from another machine.
    public var guestLink: String?
    public var sha256: String?
    public var url: String?
    public var thumbnailURL: String?

    public init(kind: String = "photo", path: String, id: Int64?, width: Int, height: Int, codec: String, capturedAt: String,
                capturedAtMicroseconds: Int64, device: String, deviceID: String? = nil, bytes: Int, orientation: Int,
                thumbnailPath: String?, state: String = "final") {
        (self.kind, self.path, self.id, self.width, self.height, self.codec) = (kind, path, id, width, height, codec)
        (self.capturedAt, self.capturedAtMicroseconds, self.device, self.deviceID) = (capturedAt, capturedAtMicroseconds, device, deviceID)
        (self.bytes, self.orientation, self.thumbnailPath, self.state) = (bytes, orientation, thumbnailPath, state)
    }

    enum CodingKeys: String, CodingKey {
        case kind, path, id, width, height, codec, device, bytes, orientation, state, albums, duration, quality, composed, output, sha256, url
        case capturedAt = "captured_at", capturedAtMicroseconds = "captured_at_us", deviceID = "device_id", thumbnailPath = "thumbnail_path"
        case rawPath = "raw_path", flashFired = "flash_fired", heifItems = "heif_items", guestLink = "guest_link", thumbnailURL = "thumbnail_url"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(path, forKey: .path)
        try container.encode(id, forKey: .id)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(codec, forKey: .codec)
        try container.encode(capturedAt, forKey: .capturedAt)
        try container.encode(capturedAtMicroseconds, forKey: .capturedAtMicroseconds)
        try container.encode(device, forKey: .device)
        try container.encodeIfPresent(deviceID, forKey: .deviceID)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(orientation, forKey: .orientation)
        try container.encode(thumbnailPath, forKey: .thumbnailPath)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(albums, forKey: .albums)
        try container.encodeIfPresent(duration, forKey: .duration)
        try container.encodeIfPresent(quality, forKey: .quality)
        try container.encodeIfPresent(flashFired, forKey: .flashFired)
        try container.encodeIfPresent(composed, forKey: .composed)
        try container.encodeIfPresent(output, forKey: .output)
        try container.encodeIfPresent(rawPath, forKey: .rawPath)
        try container.encodeIfPresent(heifItems, forKey: .heifItems)
        try container.encodeIfPresent(guestLink, forKey: .guestLink)
        try container.encodeIfPresent(sha256, forKey: .sha256)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(thumbnailURL, forKey: .thumbnailURL)
    }
}
