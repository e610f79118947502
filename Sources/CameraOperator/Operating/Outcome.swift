import CameraKit

/// What an ``Action`` did, as data for a front end to render in its own terms.
public enum Outcome: Sendable {
    /// Photos taken, in order, each with what was written for it (`nil` when it had nowhere to go).
    case photos([Shot])
    /// A countdown ran out, or was cut short.
    case countdownEnded(early: Bool)
    /// A result was shown for its time, or cut short.
    case resultShown(early: Bool)
    /// ``Action/cutShort`` ended a running countdown or result (`false`: none was running).
    case cut(ended: Bool)
    /// The session runs on this camera now.
    case switched(to: CaptureDevice)
    /// There is no other camera to switch to.
    case noOtherCamera
    /// Whether the preview is paused now.
    case previewPaused(Bool)
    /// The image settings in force now.
    case imageChanged(ImageSettings)
    /// The composed picture, as written.
    case composed(Delivered)
    /// The session stopped.
    case stopped

    /// A photo, what was written for it, and how its hook ended.
    public struct Shot: Sendable {
        public let photo: Photo
        public let delivered: Delivered?
        /// How the delivery's hook ended; `nil` without a hook or a written picture.
        public let hookEnding: Hook.Ending?
    }
}

/// What happens while an action runs, for a front end to show.
public enum OperatorEvent: Sendable, Equatable {
    /// A countdown shows this many seconds left.
    case countdown(secondsLeft: Int)
}
