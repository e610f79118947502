/// The attract screen between a booth's guests, as ``Action/attract(_:)`` shows it: the album's
/// newest composed pictures in turn, then the camera itself, over and over, under one line
/// inviting the next guest, until the next guest comes.
///
/// Its values as made are every front end's defaults (the kiosk page shows the same).
public struct AttractPlan: Sendable, Equatable {
    /// The line along the preview's foot: "Press the button for your photos".
    public var line = "Press the button for your photos"
    /// How long each picture shows, and the camera after them: five seconds (at least one).
    public var seconds = 5.0
    /// The album whose composed pictures are shown: the booth's (``BoothPlan/album``).
    public var album = BoothPlan.album
    /// How many of its newest composed pictures are shown in turn: thirty.
    public var count = 30

    public init() {}
}
