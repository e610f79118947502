import CameraKit
import FoundationEssentials
import JSON
import PhotoLibrary

/// A movie recorded and kept in the library, as data for a front end.
public struct KeptMovie: Sendable {
    /// The movie's row and file in the library.
    public let libraryMovie: LibraryPhoto
    /// What was recorded: its frames, and how the recording ended.
    public let recorded: RecordedMovie
    /// The frames the kept file holds: those recorded, less a fragment cut short.
    public let frameCount: Int
    /// The camera's name and id.
    public let device: (name: String, id: String)

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
