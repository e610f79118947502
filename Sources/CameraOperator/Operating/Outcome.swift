import CameraKit
import JSON
import OperatorWire
import PhotoLibrary

/// What an ``Action`` did, as data for a front end to render in its own terms.
public enum Outcome: Sendable {
    /// Photos taken, in order, each with what was written for it (`nil` when it had nowhere to go).
    case photos([Shot])
    /// A countdown ran out, or was cut short.
    case countdownEnded(early: Bool)
    /// A result was shown for its time, or cut short.
    case resultShown(early: Bool)
    /// The shots were shown in their places for their time, or cut short.
    case shotsShown(early: Bool)
    /// The attract screen ended: the next guest came (``Action/cutShort``), or the session stopped.
    case attractEnded
    /// ``Action/cutShort`` ended a running countdown or showing (`false`: none was running).
    case cut(ended: Bool)
    /// ``Action/retake`` dropped a booth's last shot, to be taken again (`false`: no shot was shown to retake).
    case retaking(Bool)
    /// Pictures taken or composed while holding: this many wait for the review now.
    case held(count: Int)
    /// A review kept what it showed: the photos delivered, and the composition when one was held.
    /// `answered` is false when the review's time ran out.
    case kept([Shot], composed: Delivered?, answered: Bool)
    /// A review dropped this many pictures; nothing of them was written.
    case discarded(count: Int, answered: Bool)
    /// ``Action/decide(_:)`` answered a review, running or to come (`false`: nothing was held).
    case decided(Bool)
    /// The session runs on this camera now.
    case switched(to: CaptureDevice)
    /// There is no other camera to switch to.
    case noOtherCamera
    /// Whether the preview is paused now.
    case previewPaused(Bool)
    /// The image settings in force now.
    case imageChanged(ImageSettings)
    /// The green screen's colour as the camera sees it.
    case screenColor(RGBColor)
    /// The composed picture, as written.
    case composed(Delivered)
    /// A booth without a review ran: its shots and their composition (`nil` when no shot was taken).
    case boothTaken([Shot], composed: Delivered?)
    /// ``Action/endRun`` ended a running booth or capture (`false`: none was running).
    case runEnded(Bool)
    /// A movie is being recorded into this file (in the library's `recordings/` until it is kept).
    case recordingStarted(path: String)
    /// Whether the movie is paused now.
    case recordingPaused(Bool)
    /// The movie, kept in the library.
    case movie(KeptMovie)
    /// The session stopped.
    case stopped

    /// A photo, what was written for it, and how its hook ended.
    public struct Shot: Sendable {
        /// The photo; a burst's shots keep only what is known of it, not its file or thumbnail.
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
    /// A review shows this many pictures and waits for a verdict, for `timeout` seconds (`nil`: for ever).
    case reviewing(count: Int, timeout: Double?)
    /// A review kept this many pictures; `answered` is false when its time ran out.
    case kept(count: Int, answered: Bool)
    /// A review discarded this many pictures, leaving nothing of them.
    case discarded(count: Int, answered: Bool)
    /// A photo's hook (``Hook``) failed: it exited with a status other than 0, or a signal ended it.
    case hookFailed(path: String, Hook.Ending)
    /// A booth or a capture takes shot `number` of `count` (its countdown begins).
    case shot(number: Int, of: Int)
    /// A booth's shot `shot` is shown in its place, and ``Action/retake`` takes it again until the showing ends.
    case retakeOffered(shot: Int)
    /// A burst let these frames pass (numbered from its first, 0) because the photos in hand
    /// filled its memory budget: the camera outran the encoder or the destination.
    case burstSkipped(frames: [Int])
    /// A picture is shown over the whole preview (``SessionOperator/shownPicture``): the shots in
    /// their places, a booth's result, or pictures under review.
    case showing(ShownPicture)
    /// The preview shows the camera again (with the last photo in its corner).
    case cleared
    /// The attract screen between a booth's guests began, inviting the next with `line`.
    case attracting(line: String)
    /// A picture was written (a photo, a composition), as every front end tells it; a photo
    /// taken with deferred processing is told again once final.
    case photo(PhotoRecord)
    /// A photo taken with deferred processing is final: its HEIC replaced its proxy.
    case processed(LibraryPhoto)
    /// A photo's final file could not be made; its proxy stays as the photo.
    case processingFailed(id: Int64, reason: String)
    /// A booth's clip of its shots was kept in the library.
    case animationKept(LibraryPhoto)
    /// A movie is being recorded into `path`.
    case recordingStarted(path: String)
    /// A movie was kept in the library (stopped, or ended by itself at its length or size).
    case movieKept(LibraryPhoto)
    /// A movie could not be kept, or was cut short; what was whole of it is kept when it could be.
    case movieFailed(reason: String)
    /// A picture was sent to `printer` as job `job` (``SessionOperator/print(_:format:title:on:options:cuttingStrips:)``).
    case printing(printer: String, job: Int)
    /// The printer counted sheet `number` of `of` out.
    case printProgress(printer: String, job: Int, number: Int, of: Int)
    /// The job is printed.
    case printed(printer: String, job: Int)
    /// A picture sent to a printer was not printed: its job failed or was given up (or, told by
    /// ``SessionOperator/tellNotPrinted(_:)``, a print no one waits on could not be sent).
    case printFailed(reason: String)
    /// The camera was lost or failed; a session that resumes by itself waits for it to come back.
    case interrupted(CaptureError)
    /// The camera is back, and the session runs again.
    case resumed
    /// The session could not start or go on.
    case failed(CaptureError)
    /// The session stopped, asked to or because its preview window was closed.
    case stopped
    /// The session runs on the camera of this name now.
    case switched(device: String)
    /// A camera was plugged in.
    case cameraAdded(CaptureDevice)
    /// A camera was unplugged.
    case cameraRemoved(CaptureDevice)
    /// The camera (a DSLR) has no live view: the preview shows its last photo.
    case noLiveView(device: String)
    /// An event of an output or front end of one's own, told with ``SessionOperator/tell(_:_:)``.
    case custom(name: String, fields: [String: JSONValue])

    /// The event a front end tells for what happened to the camera, as the operator relays it;
    /// `nil` for the session's own steps (started, running, reconfigured).
    public init?(_ event: SessionEvent) {
        switch event {
        case .interrupted(let error): self = .interrupted(error)
        case .resumed: self = .resumed
        case .failed(let error): self = .failed(error)
        case .stopped: self = .stopped
        case .switchedDevice(let name, _): self = .switched(device: name)
        case .cameraAdded(let camera): self = .cameraAdded(camera)
        case .cameraRemoved(let camera): self = .cameraRemoved(camera)
        case .noLiveView(let name): self = .noLiveView(device: name)
        case .started, .running, .reconfigured: return nil
        }
    }
}

/// What a picture shown over the whole preview is.
public enum ShownPicture: String, Sendable, Equatable {
    case shots, result, review
    /// One of the event's composed pictures, shown in turn between guests (``Action/attract(_:)``).
    case attract
}
