import Blocking
import PhotoLibrary

/// The library connection of ``PhotoFinishing``, used only on a lane of its own: its SQLite, its
/// spool's reads and its durable finishes never hold one of Swift's shared threads (nor the
/// finishing actor while they wait on a disk). Opened on first use.
final class FinishingLibrary: @unchecked Sendable {
    // @unchecked Sendable: `library` is set and used only by work given to `lane`, which runs
    // one piece at a time; `folder` is immutable.
    private let folder: String
    private var library: PhotoLibrary?
    private let lane = BlockingLane(label: "photo-finishing")

    init(folder: String) {
        self.folder = folder
    }

    /// Runs `work` with the library on the lane, opening it first if it is not yet.
    func run<T: Sendable>(_ work: @escaping @Sendable (PhotoLibrary) throws(LibraryError) -> T) async throws(LibraryError) -> T {
        try await lane.run { () throws(LibraryError) -> T in try work(self.opened()) }
    }

    /// Whether the library's spool holds a photo (a look at its folder, on the lane).
    func hasSpooledPhotos() async -> Bool {
        let folder = folder
        return await lane.run { PhotoLibrary.hasSpooledPhotos(folder: folder) }
    }

    private func opened() throws(LibraryError) -> PhotoLibrary {
        if let library { return library }
        let opened = try PhotoLibrary(folder: folder)
        library = opened
        return opened
    }
}
