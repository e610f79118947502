/// A movie just recorded and kept in the library, as every front end writes it (`record --json`,
/// the `movie` event and outcome). `id`, `thumbnail_path` and `audio_codec` are always written
/// (`null` when there is none); `error` only when the recording ended on a failure.
public struct MovieRecord: Codable, Sendable, Equatable {
    /// Always `movie`.
    public var kind = "movie"
    public var path: String
    public var id: Int64?
    public var width: Int
    public var height: Int
    /// The picture's codec (`h264`, `hevc`) and the sound's (`aac`), `nil` for a silent movie.
    public var codec: String
    public var audioCodec: String?
    /// The length in seconds, the frames the file holds, and those the camera made that were lost.
    public var duration: Double
    public var frames: Int
    public var lostFrames: Int
    /// The first frame's instant, ISO 8601 in UTC with milliseconds, and in microseconds since 1970.
    public var capturedAt: String
    public var capturedAtMicroseconds: Int64
    public var device: String
    public var deviceID: String
    public var bytes: Int
    public var thumbnailPath: String?
    /// How the recording ended: `stopped`, `duration`, `size`, `session_stopped` or `failed`.
    public var ended: String
    /// The encoder that made the picture (`x264enc`, `vah264enc`, …).
    public var encoder: String
    /// Why the recording ended early, in one sentence.
    public var error: String?
    /// The copy written beside the library (`--output`).
    public var output: String?

    public init(path: String, id: Int64?, width: Int, height: Int, codec: String, audioCodec: String?, duration: Double, frames: Int,
                lostFrames: Int, capturedAt: String, capturedAtMicroseconds: Int64, device: String, deviceID: String, bytes: Int,
                thumbnailPath: String?, ended: String, encoder: String, error: String?) {
        (self.path, self.id, self.width, self.height, self.codec, self.audioCodec) = (path, id, width, height, codec, audioCodec)
        (self.duration, self.frames, self.lostFrames, self.capturedAt) = (duration, frames, lostFrames, capturedAt)
        (self.capturedAtMicroseconds, self.device, self.deviceID, self.bytes) = (capturedAtMicroseconds, device, deviceID, bytes)
        (self.thumbnailPath, self.ended, self.encoder, self.error) = (thumbnailPath, ended, encoder, error)
    }

    enum CodingKeys: String, CodingKey {
        case kind, path, id, width, height, codec, duration, frames, device, bytes, ended, encoder, error, output
        case audioCodec = "audio_codec", lostFrames = "lost_frames", capturedAt = "captured_at", capturedAtMicroseconds = "captured_at_us"
        case deviceID = "device_id", thumbnailPath = "thumbnail_path"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(path, forKey: .path)
        try container.encode(id, forKey: .id)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(codec, forKey: .codec)
        try container.encode(audioCodec, forKey: .audioCodec)
        try container.encode(duration, forKey: .duration)
        try container.encode(frames, forKey: .frames)
        try container.encode(lostFrames, forKey: .lostFrames)
        try container.encode(capturedAt, forKey: .capturedAt)
        try container.encode(capturedAtMicroseconds, forKey: .capturedAtMicroseconds)
        try container.encode(device, forKey: .device)
        try container.encode(deviceID, forKey: .deviceID)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(thumbnailPath, forKey: .thumbnailPath)
        try container.encode(ended, forKey: .ended)
        try container.encode(self.encoder, forKey: .encoder)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(output, forKey: .output)
    }
}
