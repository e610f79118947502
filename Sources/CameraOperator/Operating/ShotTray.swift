import CameraKit

/// What one flow has taken and not yet delivered or composed: its shots for a composition, and
/// the pictures it holds for its review. A booth or a capture run has a tray of its own, so its
/// composition is made of its own shots and its review shows only what it took; actions sent
/// one by one (a description file's steps, the API's `hold`, `capture`, `compose`, `review`)
/// share the operator's loose tray.
struct ShotTray: Sendable {
    /// The shots taken since the tray's last composition (at most ``ShotComposition/maximumShots``).
    var cells: [ShotComposition.Cell] = []
    /// The albums its pictures go into besides the operator's.
    var albums: [String] = []
    /// Whether photos and compositions are held for a review instead of delivered.
    var holding = false
    /// The photos held, and the composition held with the captures of the shots it is made of.
    var held: [Photo] = []
    var heldComposition: (item: DeliveryItem, picture: [UInt8], shots: [Int])?
    /// The operator's last composition before holding began: shown again when the held one is discarded.
    var compositionBeforeHold: [UInt8]?
    /// A verdict given before the tray's review waited: the review takes it.
    var earlyVerdict: Verdict?

    /// How many pictures wait for the review.
    var heldCount: Int { held.count + (heldComposition == nil ? 0 : 1) }

    /// A shot remembered for the next composition; the oldest gives way past the most a picture composes.
    mutating func remember(_ photo: Photo) {
        cells.append(ShotComposition.Cell(photo))
        if cells.count > ShotComposition.maximumShots { cells.removeFirst() }
    }

    /// A shot taken but not delivered, dropped from the next composition (a booth's retake).
    mutating func forget(_ photo: Photo) {
        cells.removeAll { $0.captureID == photo.captureID }
    }

    /// The review is over: nothing is held any more, and pictures taken next are delivered.
    mutating func endReview() {
        (holding, held, heldComposition, earlyVerdict) = (false, [], nil, nil)
    }

    /// A shot delivered: the library's id is what the composition of it names as its part.
    mutating func noteLibraryID(_ id: Int64, of capture: Int) {
        if let index = cells.lastIndex(where: { $0.captureID == capture }) { cells[index].libraryID = id }
    }
}
