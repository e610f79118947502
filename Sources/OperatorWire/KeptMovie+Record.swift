import CameraKit
import CameraOperator
import JSON

extension KeptMovie {
    /// The JSON object a front end prints for it.
    public var record: [String: Any] {
        var record: [String: Any] = [
            "kind": "movie", "path": libraryMovie.path, "id": libraryMovie.id,
            "width": libraryMovie.width, "height": libraryMovie.height, "codec": libraryMovie.codec,
            "duration": libraryMovie.duration ?? 0, "frames": frameCount, "lost_frames": recorded.lostFrameCount,
            "captured_at": Delivered.isoTime(libraryMovie.capturedAt),
            "device": device.name, "device_id": device.id, "bytes": libraryMovie.byteCount,
            "thumbnail_path": libraryMovie.thumbnailPath ?? JSONValue.null,
            "ended": recorded.ending.word, "encoder": recorded.encoder,
            "audio_codec": recorded.hasSound ? "aac" : JSONValue.null,
        ]
        if let failure = recorded.failure { record["error"] = failure.description }
        return record
    }
}

extension MovieEnding {
    /// How the recording ended, in one word for JSON.
    public var word: String {
        switch self {
        case .stopped: "stopped"
        case .reachedDuration: "duration"
        case .reachedSize: "size"
        case .sessionStopped: "session_stopped"
        case .failed: "failed"
        }
    }
}
