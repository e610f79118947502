import CameraKit
import PhotoLibrary

/// A movie recorded and kept in the library, as data for a front end.
public struct KeptMovie: Sendable {
    /// The movie's row and file in the library.
    public let libraryMovie: LibraryPhoto
    /// What was recorded: its frames, and how the recording ended.
    public let recorded: RecordedMovie
    /// The frames the kept file holds: those recorded, less a fragment cut short.
    public let frameCount: Int
    /// The camera's name and id.
    public let device: (name: String, id: String)
}
