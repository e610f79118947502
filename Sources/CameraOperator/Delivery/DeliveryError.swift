import FileSystem
import PhotoLibrary

/// Why a picture could not be delivered, as data: a front end says it in its own words.
public enum DeliveryError: Error, Sendable {
    /// Which destination a failure concerns.
    public enum Destination: Sendable, Equatable {
        /// The copy of each picture.
        case copy
        /// The JSON sidecar of each picture.
        case sidecar
        /// The link to the newest picture.
        case latestLink
    }

    /// The library could not keep the picture (a full disk, a read-only folder).
    case library(LibraryError)
    /// A destination could not be written; `keptAt` is the library file when the picture is safe there.
    case destination(Destination, DurableFile.WriteError, keptAt: String?)
    /// A destination would be replaced by each picture, having no `%d` or `%t` in its name.
    case sameNameForEveryPicture(Destination, String)
    /// A destination's pattern pads its counter wider than ``OutputPattern/maximumCounterWidth``.
    case counterTooWide(Destination, pattern: String, counter: String)
    /// The copy and the sidecar both asked for standard output.
    case bothOnStandardOutput
    /// Standard output refused the picture (its reader went away); `keptAt` as above.
    case standardOutputClosed(keptAt: String?)
    /// The hook command could not be started.
    case hookDidNotStart(command: String, reason: String)
}
