import CameraOperator
import FoundationEssentials
import Glibc
import JSON
import PhotoLibrary

extension LibraryPhoto {
    /// The JSON object a front end gives for a library photo (`camctl library list --json`, the HTTP API).
    public var record: [String: Any] {
        var record: [String: Any] = [
            "id": id, "path": path, "thumbnail_path": thumbnailPath ?? JSONValue.null,
            "captured_at": Delivered.isoTime(capturedAt), "device": device,
            "width": width, "height": height, "codec": codec,
            "orientation": orientation, "bytes": byteCount, "albums": albums,
            "state": isProcessing ? "processing" : "final", "kind": kind.rawValue,
        ]
        if let duration { record["duration"] = duration }
        return record
    }
}
