import FileSystem
import Glibc

/// Why the library could not do what was asked; ``message`` is one sentence for a person.
public struct LibraryError: Error, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The disk or quota is full.
        case diskFull
        /// The folder or index may not be written (read-only, permissions).
        case permissionDenied
        /// A file or folder could not be created.
        case cannotCreate
        /// Reading or writing failed.
        case ioError
        /// No photo has the id asked for.
        case notFound
        /// The index is damaged.
        case corrupt
    }

    /// What the person can do about it, as a choice a front end words in its own terms.
    public enum Remedy: Sendable, Equatable {
        /// Look at the list of photos and their ids.
        case listPhotos
    }

    public let kind: Kind
    /// What happened, and what to do where ``remedy`` does not say.
    public let message: String
    public let remedy: Remedy?

    init(_ kind: Kind, _ message: String, remedy: Remedy? = nil) {
        self.kind = kind
        self.message = message
        self.remedy = remedy
    }

    /// The error a failed file write means.
    public init(_ failure: DurableFile.WriteError) {
        let path = failure.path
        switch failure.code {
        case ENOSPC, EDQUOT: self.init(.diskFull, "\(path) could not be written: \(failure.reason); free some space and try again")
        case EACCES, EPERM, EROFS: self.init(.permissionDenied, "\(path) could not be written: \(failure.reason); choose a folder you can write to")
        case _ where failure.refusal != nil: self.init(.cannotCreate, "\(path) was not written: \(failure.reason)")
        case ENOENT: self.init(.cannotCreate, "\(path) could not be created: its folder does not exist")
        case ENOTDIR: self.init(.cannotCreate, "\(path) could not be created: a file stands where a folder of its path should be")
        case EIO: self.init(.ioError, "\(path) could not be written: \(failure.reason)")
        default: self.init(.cannotCreate, "\(path) could not be created: \(failure.reason)")
        }
    }

    /// The error a failed index statement means.
    init(_ failure: DatabaseError, index path: String) {
        if failure.isDiskFull {
            self.init(.diskFull, "the library index \(path) could not be written: the disk is full (or nearly); free some space and try again")
        } else if failure.isBusy {
            self.init(.ioError, "the library index \(path) stayed locked by another program for 30 seconds; wait for it to finish (or close it) and try again")
        } else if failure.isReadOnly {
            self.init(.permissionDenied, "the library index \(path) may not be written; choose a library folder you can write to")
        } else if failure.isCorrupt {
            self.init(.corrupt, "the library index \(path) is damaged (\(failure.message)); move it away and the library indexes its photos again when it next opens")
        } else {
            self.init(.ioError, "the library index \(path) could not be used: \(failure.message)")
        }
    }
}
