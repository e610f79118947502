import CameraKit

/// Photos taken one after another, as ``Action/capture(_:)`` carries it out: a countdown before
/// each, an interval from one photo's start to the next's (a time-lapse), and each photo reviewed
/// before it is kept when the plan says so.
///
/// Its values as made are every front end's defaults: one photo at once, kept without a review.
public struct CapturePlan: Sendable {
    /// How many photos: one.
    public var count = 1
    /// The seconds counted down before each photo: none.
    public var countdown = 0.0
    /// The seconds from one photo's start to the next's: none (each follows the one before).
    public var interval = 0.0
    /// The review each photo waits for before it is kept, or `nil` (the default) to keep it at once.
    public var review: ReviewPlan?
    /// The photos' settings.
    public var settings = PhotoSettings()

    public init() {}
}
