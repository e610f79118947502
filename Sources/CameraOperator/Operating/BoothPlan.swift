import CameraKit

/// A photo booth's run, as ``Action/booth(_:)`` carries it out: a countdown before each shot, each
/// shot shown in its place of the layout, the shots composed, then the composition shown (or
/// reviewed, keeping or discarding everything together).
public struct BoothPlan: Sendable {
    /// How many shots, and the seconds counted down before each.
    public var shots = 4
    public var countdown = 3.0
    /// The layout's columns: 2 (a grid) or 1 (a strip).
    public var columns = 2
    /// How long each shot but the last is shown in its place, and the composition at the end.
    public var showShots = 1.5
    public var showResult = 5.0
    /// Whether nothing is kept until the composition is reviewed; how long a review waits
    /// (`nil`: for ever) before it keeps; the hint it shows.
    public var reviews = false
    public var reviewTimeout: Double? = 30
    public var reviewHint: String?
    /// The shots' settings; their thumbnails are made at the composition's cell width.
    public var settings = PhotoSettings()
    public var albums = ["booth"]
    /// A short clip of the shots kept beside the composition (in the library), or `nil` for none.
    public var animation: ShotAnimation.Style?

    public init() {}
}
