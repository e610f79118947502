import CameraOperator
import JSON
import PhotoLibrary

extension OperatorEvent {
    /// The JSON object every front end gives for the event (`{"event": "…", …}`): what
    /// `camctl --json` prints, `/api/events` sends and a fleet node publishes, alike.
    public var record: [String: Any] {
        switch self {
        case .countdown(let left): ["event": "countdown", "seconds_left": left]
        case .reviewing(let count, let timeout): ["event": "reviewing", "count": count, "timeout": timeout ?? JSONValue.null]
        case .kept(let count, let answered): ["event": "kept", "count": count, "answered": answered]
        case .discarded(let count, let answered): ["event": "discarded", "count": count, "answered": answered]
        case .hookFailed(let path, .exited(let status)): ["event": "hook_failed", "path": path, "status": Int(status)]
        case .hookFailed(let path, .signalled(let signal)): ["event": "hook_failed", "path": path, "signal": Int(signal)]
        case .shot(let number, let count): ["event": "shot", "number": number, "of": count]
        case .burstSkipped(let frames): ["event": "burst_skipped", "frames": frames]
        case .showing(let kind): ["event": "showing", "picture": kind.rawValue]
        case .cleared: ["event": "cleared"]
        case .processed(let photo): ["event": "processed", "photo": photo.record]
        case .processingFailed(let id, let reason): ["event": "processing_failed", "id": id, "message": reason]
        case .animationKept(let clip): ["event": "animation", "movie": clip.record]
        case .recordingStarted(let path): ["event": "recording", "path": path]
        case .movieKept(let movie): ["event": "movie", "movie": movie.record]
        case .movieFailed(let reason): ["event": "movie_failed", "message": reason]
        }
    }
}
