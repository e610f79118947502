import CameraKit
import FoundationEssentials
import Glibc

/// What a front end asks a ``SessionOperator`` to do: a key, a signal, a description file's step,
/// a request over the network, each made into one of these.
public enum Action: Sendable {
    /// Take a photo of a frame newer than the last photo's; it is delivered.
    case takePhoto(PhotoSettings)
    /// Take the photo of the frame the camera took nearest an instant (a fleet's synchronized
    /// capture); it is delivered. An instant that passed more than `tolerance` seconds ago is refused.
    case takePhotoNear(Date, tolerance: Double, PhotoSettings)
    /// Take `count` photos of consecutive frames; each is delivered.
    case burst(count: Int, PhotoSettings)
    /// Take photos as the plan says (countdowns, intervals, reviews); ``cutShort`` ends a
    /// countdown or an interval early, ``endRun`` ends the run after the photo in hand.
    case capture(CapturePlan)
    /// Count down `seconds`, large on the preview (when it shows text) and as ``OperatorEvent``s;
    /// ``cutShort`` ends it early.
    case countdown(seconds: Double)
    /// Show the last composed picture over the whole preview for `seconds` (a booth's result);
    /// ``cutShort`` ends it early.
    case showResult(seconds: Double)
    /// Show the shots taken since the last composition in their places of a `slots`-place layout
    /// (a grid, a strip or a template) over the whole preview for `seconds`, as a booth fills its
    /// strip; ``cutShort`` ends it early.
    case showShots(slots: Int, layout: ShotLayout, seconds: Double)
    /// End a running countdown or showing now (the shutter pressed during a booth's countdown).
    case cutShort
    /// Take a booth's last shot again: while it is shown in its place (before the next shot, or
    /// before the result), it is dropped without a trace and taken again after its countdown.
    case retake
    /// Hold the photos and compositions that follow for a ``review(_:)`` instead of delivering
    /// them: nothing is written until they are kept.
    case holdForReview
    /// Show what is held (the composition, else the last photo, as a viewer shows it) over the
    /// whole preview with the plan's hint at its foot, and wait for ``decide(_:)``; after the
    /// plan's timeout its `unanswered` verdict decides. Everything held is then delivered, or
    /// dropped without a trace, and holding ends.
    case review(ReviewPlan)
    /// Answer a running review (or, while pictures are held, the review to come).
    case decide(Verdict)
    /// Switch the running session to another camera.
    case switchCamera(to: CaptureDevice)
    /// Switch to the camera after the running one in the list of cameras (the test camera
    /// last), wrapping round; with no other camera, nothing changes.
    case nextCamera
    /// Stop showing new frames in the preview, or show them again.
    case pausePreview, resumePreview
    /// Change the filters, colour values, zoom, aspect ratio, mirroring and rotation.
    case changeImage(ImageSettings)
    /// Change the picture's settings from those in force when the change's turn comes, so
    /// changes that several hands ask for at once are each kept (a filter from a key, a zoom
    /// from the page).
    case adjustImage(@Sendable (ImageSettings) -> ImageSettings)
    /// Compose the photos taken since the last composition into one picture (a grid, a strip or
    /// a template), and deliver it into `albums`.
    case compose(layout: ShotLayout, quality: Int, albums: [String])
    /// Run a photo booth (countdowns, shots shown in their places, a composition, a review or
    /// the result shown); ``cutShort`` ends a countdown or a showing early, ``endRun`` ends the
    /// run after the shot in hand.
    case booth(BoothPlan)
    /// Sample the green screen's colour as the camera sees it (``OperatedCamera/sampleScreenColor()``),
    /// in the camera's turn; the picture is keyed as before afterwards.
    case sampleScreenColor
    /// Show the attract screen between a booth's guests until ``cutShort`` (the next guest) or
    /// the session's stop: the album's newest composed pictures in turn, then the camera, under
    /// the plan's line.
    case attract(AttractPlan)
    /// End a running booth or capture: a countdown, interval or showing ends now and no more
    /// shots are taken; a booth's are composed (and reviewed, when it reviews) without showing
    /// the result.
    case endRun
    /// Start recording a movie into the library (photos can be taken meanwhile); it ends by
    /// ``stopRecording``, or by itself at the settings' length or size.
    case startRecording(MovieSettings)
    /// Stop taking frames into the movie, and take them again; the movie has no gap.
    case pauseRecording, resumeRecording
    /// End the movie and keep it.
    case stopRecording
    /// Stop the session (a movie being recorded is kept first).
    case stop
}

/// What a review decides for the pictures it shows.
public enum Verdict: String, Sendable, Equatable {
    /// Deliver them, as photos are delivered without a review.
    case keep
    /// Drop them: no file, no library row, no hook.
    case discard
}
