import CameraKit

/// Why an ``Action`` failed, as data for a front end to render in its own terms.
public enum OperatorError: Error, Sendable {
    /// The camera or an encoder failed.
    case capture(CaptureError)
    /// A picture could not be written where it was to go.
    case delivery(DeliveryError)
    /// The front end's report of a written picture failed (its reader went away).
    case report(any Error)
    /// A composition was asked for before any photo was taken.
    case nothingToCompose
    /// A composed picture has neither a library nor a copy to go to.
    case nowhereToKeep
    /// A review was asked for with nothing held, or while another review waits.
    case nothingToReview
    /// A movie was asked for while one is being recorded.
    case alreadyRecording
    /// A movie was asked to stop, pause or resume while none is being recorded.
    case notRecording
    /// A movie was asked for without a library to keep it in.
    case nowhereToRecord
    /// Another flow holds what this one needs (the stage: a booth, a capture run, a review, a
    /// countdown or a showing), and this one does not wait for its turn (``FlowGate``).
    case busy(Flow)
    /// The task asking was cancelled (its asker went away) while it waited for its turn: nothing was done.
    case cancelled
    /// An event of one's own was given a name the vocabulary's own events have, or none.
    case reservedEventName(String)
}
