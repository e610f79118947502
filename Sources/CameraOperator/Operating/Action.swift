import CameraKit

/// What a front end asks a ``SessionOperator`` to do: a key, a signal, a description file's step,
/// a request over the network, each made into one of these.
public enum Action: Sendable {
    /// Take a photo of a frame newer than the last photo's; it is delivered.
    case takePhoto(PhotoSettings)
    /// Take `count` photos of consecutive frames; each is delivered.
    case burst(count: Int, PhotoSettings)
    /// Count down `seconds`, large on the preview (when it shows text) and as ``OperatorEvent``s;
    /// ``cutShort`` ends it early.
    case countdown(seconds: Double)
    /// Show the last composed picture over the whole preview for `seconds` (a booth's result);
    /// ``cutShort`` ends it early.
    case showResult(seconds: Double)
    /// End a running countdown or result now (the shutter pressed during a booth's countdown).
    case cutShort
    /// Switch the running session to another camera.
    case switchCamera(to: CaptureDevice)
    /// Switch to the camera after the running one in the list of cameras (the test camera
    /// last), wrapping round; with no other camera, nothing changes.
    case nextCamera
    /// Stop showing new frames in the preview, or show them again.
    case pausePreview, resumePreview
    /// Change the filters, colour values, zoom, aspect ratio, mirroring and rotation.
    case changeImage(ImageSettings)
    /// Compose the photos taken since the last composition into one picture (`columns` 2: a
    /// grid; 1: a strip), and deliver it into `albums`.
    case compose(columns: Int, quality: Int, albums: [String])
    /// Stop the session.
    case stop
}
