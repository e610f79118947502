import CameraKit

extension SessionEvent {
    /// The JSON object every front end gives for a session event worth telling (`nil` for the
    /// others): `{"event": "interrupted", "message": "…"}`, as `/api/events` sends it and
    /// `preview --json` prints it. `wording` says a failure in the front end's own words (its
    /// remedies as its options, or fields).
    public func record(wording: (CaptureError) -> String = \.description) -> [String: Any]? {
        switch self {
        case .interrupted(let error): ["event": "interrupted", "message": "\(wording(error)); waiting for the camera to come back"]
        case .resumed: ["event": "resumed", "message": "the camera is back"]
        case .failed(let error): ["event": "failed", "message": wording(error)]
        case .stopped: ["event": "stopped"]
        case .switchedDevice(let name, _): ["event": "switched", "message": name]
        case .cameraAdded(let camera): ["event": "camera_added", "message": camera.description]
        case .cameraRemoved(let camera): ["event": "camera_removed", "message": camera.description]
        case .started, .running, .reconfigured: nil
        }
    }
}
