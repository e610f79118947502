import CameraKit

/// A photo booth's run, as ``Action/booth(_:)`` carries it out: a countdown before each shot, each
/// shot shown in its place of the layout, the shots composed, then the composition shown (or
/// reviewed, keeping or discarding everything together).
///
/// Its values as made are every front end's defaults: the command line, the HTTP API, the page
/// and a fleet's commands fill in only what they were told.
public struct BoothPlan: Sendable {
    /// How many shots: four.
    public var shots = 4
    /// The seconds counted down before each shot: three.
    public var countdown = 3.0
    /// How the shots are laid out: the 2x2 grid unless told otherwise.
    public var layout = ShotLayout.standard
    /// How long each shot but the last is shown in its place (1.5 s), and the composition at the
    /// end (5 s); 0 shows nothing.
    public var showShots = 1.5
    public var showResult = 5.0
    /// Whether a shot shown in its place can be taken again (``Action/retake``); the last shot is
    /// then shown too, before the result, for the same time. On unless told otherwise.
    public var retakes = true
    /// The review the composition and its shots wait for before anything is kept, or `nil` (the
    /// default) to keep them at once.
    public var review: ReviewPlan?
    /// The shots' settings; their thumbnails are made at the size of the layout's places.
    public var settings = PhotoSettings()
    /// The album a booth's shots and compositions go into unless told otherwise: `booth`.
    public static let album = "booth"
    /// The albums the shots and the composition go into: ``album``.
    public var albums = [BoothPlan.album]
    /// A short clip of the shots kept beside the composition (in the library), or `nil` for none.
    public var animation: ShotAnimation.Style?

    public init() {}
}
