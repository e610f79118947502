import CameraKit
import OperatorWire

extension SessionEvent {
    /// The record every front end gives for a session event worth telling (`nil` for the
    /// others), as `/api/events` sends it and `preview --json` prints it. `wording` says a
    /// failure in the front end's own words (its remedies as its options, or fields).
    public func record(wording: (CaptureError) -> String = \.description) -> EventRecord? {
        switch self {
        case .interrupted(let error): .interrupted(message: "\(wording(error)); waiting for the camera to come back")
        case .resumed: .resumed(message: "the camera is back")
        case .failed(let error): .failed(message: wording(error))
        case .stopped: .stopped
        case .switchedDevice(let name, _): .switched(message: name)
        case .cameraAdded(let camera): .cameraAdded(message: camera.description)
        case .cameraRemoved(let camera): .cameraRemoved(message: camera.description)
        case .noLiveView(let name): .noLiveView(message: "\(name) has no live view; the preview shows its last photo")
        case .started, .running, .reconfigured: nil
        }
    }
}
