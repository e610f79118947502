/// What happens to a capture session, in order.
public enum SessionEvent: Sendable, Equatable {
    /// The pipeline is built and starting on this camera and format.
    case started(device: String, format: CaptureFormat)
    /// Frames flow.
    case running
    /// The camera was lost or failed; the session stopped delivering frames.
    case interrupted(CaptureError)
    /// The session runs again after an interruption.
    case resumed
    /// The configuration changed while running (a new size or output); the pipeline was rebuilt.
    case reconfigured
    /// The camera was swapped while running; the outputs went on.
    case switchedDevice(to: String, format: CaptureFormat)
    /// The session stopped, asked to or because the preview window was closed.
    case stopped
    /// A camera was plugged in (reported while a session on a system camera runs or waits to resume).
    case cameraAdded(CaptureDevice)
    /// A camera was unplugged; when it is the session's own, an `interrupted` event follows.
    case cameraRemoved(CaptureDevice)
    /// The session could not start or go on.
    case failed(CaptureError)
    /// The camera (a DSLR) has no live view: the preview shows its last photo instead. Told once a start.
    case noLiveView(device: String)
}
