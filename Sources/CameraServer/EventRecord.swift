import CameraKit
import CameraOperator
import FoundationEssentials
import Glibc

/// The session's events as the API sends them (the operator's are ``OperatorEvent/record``).
enum EventRecord {
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
