import Blocking
import GStreamer
import PhotoLibrary

/// A photo delivery and the library connection it holds, used only on a serial queue of their
/// own: writing files, syncing them to disk and SQLite's waits for a busy library never hold a
/// thread of Swift's shared pool or the operator's actor.
final class DeliveryLane: @unchecked Sendable {
    // Safe to share: `delivery` (with its library connection) is touched only by work given to
    // `run`, which the lane's serial queue runs one piece at a time; the rest is immutable.
    private let delivery: PhotoDelivery
    private let lane = BlockingLane(label: "delivery")
    /// What the delivery was made with, read anywhere: its hook, whether it keeps a library (in
    /// which folder, with which guests' links), and whether photos may be delivered as a proxy to be finished later.
    let hook: Hook?
    let libraryFolder: String?
    let guestLinks: GuestLinks?
    let defersProcessing: Bool

    init(_ delivery: sending PhotoDelivery) {
        (hook, libraryFolder, defersProcessing) = (delivery.hook, delivery.library?.folder, delivery.defersProcessing)
        guestLinks = delivery.guestLinks
        self.delivery = delivery
    }

    /// Runs `work` with the delivery on the lane, after the work given before, and returns what it returns.
    func run<T: Sendable, Failure: Error>(_ work: @escaping @Sendable (PhotoDelivery) throws(Failure) -> T) async throws(Failure) -> T {
        try await lane.run { () throws(Failure) -> T in try work(self.delivery) }
    }
}
