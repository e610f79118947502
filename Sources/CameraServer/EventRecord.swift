import CameraKit
import CameraOperator
import FoundationEssentials
import Glibc

/// Events as the API sends them: the same objects `camctl --json` prints (`{"event": "…", …}`).
enum EventRecord {
    static func json(_ event: OperatorEvent) -> [String: Any] {
        switch event {
        case .countdown(let left): ["event": "countdown", "seconds_left": left]
        case .reviewing(let count): ["event": "reviewing", "count": count]
        case .kept(let count): ["event": "kept", "count": count]
        case .discarded(let count): ["event": "discarded", "count": count]
        case .boothShot(let number, let count): ["event": "booth_shot", "number": number, "of": count]
        case .burstSkipped(let frames): ["event": "burst_skipped", "frames": frames]
        case .showing(let kind): ["event": "showing", "picture": kind.rawValue]
        case .cleared: ["event": "cleared"]
        case .processed(let photo): ["event": "processed", "photo": photo.record]
        case .processingFailed(let id, let reason): ["event": "processing_failed", "id": id, "message": reason]
        case .animationKept(let clip): ["event": "animation", "movie": clip.record]
        case .recordingStarted: ["event": "recording"]
        case .movieKept(let movie): ["event": "movie", "movie": movie.record]
        case .movieFailed(let reason): ["event": "movie_failed", "message": reason]
        }
    }

    /// A session event worth telling a client; `nil` for the others.
    static func json(_ event: SessionEvent) -> [String: Any]? {
        switch event {
        case .interrupted(let error): ["event": "interrupted", "message": "\(error.description); waiting for the camera to come back"]
        case .resumed: ["event": "resumed", "message": "the camera is back"]
        case .failed(let error): ["event": "failed", "message": error.description]
        case .stopped: ["event": "stopped"]
        case .switchedDevice(let name, _): ["event": "switched", "message": name]
        case .cameraAdded(let camera): ["event": "camera_added", "message": camera.description]
        case .cameraRemoved(let camera): ["event": "camera_removed", "message": camera.description]
        case .started, .running, .reconfigured: nil
        }
    }
}
