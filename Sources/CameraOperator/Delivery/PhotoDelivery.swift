import CameraKit
import FileSystem
import FoundationEssentials
import Glibc
import OperatorWire
import PhotoLibrary

/// Where pictures go once taken, and what happens there: a row and a file in the photo library,
/// a copy at a path or pattern (or on standard output), a link to the newest picture, a JSON
/// sidecar, and a hook command. Every destination is checked when the delivery is made, before a
/// camera starts; each picture is then delivered in order, and what was written is returned as data.
public struct PhotoDelivery {
    /// Where a copy or a sidecar is written.
    public enum Target: Sendable, Equatable {
        /// A file, named by a pattern (a plain path when one picture is delivered).
        case pattern(OutputPattern)
        /// The process's standard output.
        case standardOutput
    }

    /// The photo library, when pictures are kept there.
    public let library: PhotoLibrary?
    public let copy: Target?
    /// A symbolic link made to point at each new picture; only a link is ever replaced there.
    public let latestLink: String?
    public let sidecar: Target?
    public let hook: Hook?
    /// The library's guests' links, each delivered photo's told with it (`nil` without a library,
    /// or where its key cannot be kept).
    public let guestLinks: GuestLinks?

    /// Checks every destination: a pattern for each of several pictures, counters within bounds,
    /// folders that can be written, no library file replaced, and a latest link that is not a file.
    /// `pictureCount` is how many pictures will come (`nil`: any number).
    public init(library: PhotoLibrary?, copy: Target? = nil, latestLink: String? = nil, sidecar: Target? = nil,
                hook: Hook? = nil, pictureCount: Int?) throws(DeliveryError) {
        (self.library, self.copy, self.latestLink, self.sidecar, self.hook) = (library, copy, latestLink, sidecar, hook)
        guestLinks = library.flatMap { try? GuestLinks(folder: $0.folder) }
        if copy == .standardOutput, sidecar == .standardOutput { throw .bothOnStandardOutput }
        for (destination, target) in [(DeliveryError.Destination.copy, copy), (.sidecar, sidecar)] {
            guard case .pattern(let pattern)? = target else { continue }
            if pictureCount != 1, !pattern.namesEachPicture { throw .sameNameForEveryPicture(destination, pattern.text) }
            if let counter = pattern.overwideCounter { throw .counterTooWide(destination, pattern: pattern.text, counter: counter) }
            try check(pattern.path(number: 1, date: Date()), for: destination)
        }
        if let latestLink { try checkLatestLink(latestLink) }
    }

    /// Whether a HEIC taken with deferred processing can be delivered as its proxy, to be
    /// finished in place later: only when the library is its one destination, as a copy, a link, a
    /// sidecar or a hook would be given the proxy.
    public var defersProcessing: Bool {
        library != nil && copy == nil && latestLink == nil && sidecar == nil && hook == nil
    }

    /// Delivers picture number `number` (from 1): into the library, then the copy, the latest
    /// link and the sidecar. Returns `nil` when it has nowhere to go (no library, no copy to a
    /// file or standard output). Run the ``hook`` for it after. An item with a pending HEIC
    /// (``DeliveryItem/pending``) goes into the library as a processing photo, its proxy its file.
    public func deliver(_ item: DeliveryItem, number: Int, device: CaptureDevice) throws(DeliveryError) -> Delivered? {
        var libraryPhoto: LibraryPhoto?
        if let library {
            do {
                libraryPhoto = try library.add(NewPhoto(
                    data: item.data, thumbnail: item.thumbnail, codec: item.codec.rawValue,
                    width: item.width, height: item.height, orientation: item.orientation,
                    capturedAt: item.capturedAt, device: device.name, albums: item.albums, pending: item.pending,
                    parts: item.parts, raw: item.raw.flatMap { RawFile(data: $0.data, cameraName: $0.name) }))
            } catch {
                throw .library(error)
            }
        }
        var copyPath: String?
        switch copy {
        case .standardOutput?:
            guard Self.writeToStandardOutput(item.data) else { throw .standardOutputClosed(keptAt: libraryPhoto?.path) }
        case .pattern(let pattern)?:
            let path = pattern.path(number: number, date: item.capturedAt)
            try write(item.data, to: path, for: .copy, keptAt: libraryPhoto?.path)
            copyPath = path
        case nil:
            break
        }
        guard let path = libraryPhoto?.path ?? copyPath ?? (copy == .standardOutput ? "-" : nil) else { return nil }
        let delivered = Delivered(path: path, libraryPhoto: libraryPhoto, copy: copyPath, item: item, device: (device.name, device.id),
                                  guestLink: libraryPhoto.flatMap { photo in guestLinks?.path(for: photo.id) })
        if let latestLink, path != "-" { try link(latestLink, to: path) }
        switch sidecar {
        case .standardOutput?:
            guard Self.writeToStandardOutput(Self.json(delivered.record, pretty: false)) else {
                throw .standardOutputClosed(keptAt: libraryPhoto?.path)
            }
        case .pattern(let pattern)?:
            try write(Self.json(delivered.record, pretty: true), to: pattern.path(number: number, date: item.capturedAt),
                      for: .sidecar, keptAt: libraryPhoto?.path)
        case nil:
            break
        }
        return delivered
    }

    // MARK: - Destinations

    /// Fails when `path` could not be written (``OutputFile``'s rules), or is a library file.
    private func check(_ path: String, for destination: DeliveryError.Destination) throws(DeliveryError) {
        do {
            try PhotoLibrary.checkDestination(path)
            try OutputFile.check(path)
        } catch {
            throw .destination(destination, error, keptAt: nil)
        }
    }

    /// Writes a copy or sidecar as ``OutputFile`` does, never over a file of the library.
    private func write(_ bytes: [UInt8], to path: String, for destination: DeliveryError.Destination,
                       keptAt: String?) throws(DeliveryError) {
        do {
            try PhotoLibrary.checkDestination(path)
            try OutputFile.write(bytes, to: path)
        } catch {
            throw .destination(destination, error, keptAt: keptAt)
        }
    }

    /// The latest link replaces only a symbolic link (its own, from an earlier run), never a file.
    private func checkLatestLink(_ path: String) throws(DeliveryError) {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFLNK {
            throw .destination(.latestLink, DurableFile.WriteError(path: path, refusal: .notALink), keptAt: nil)
        }
        do {
            try DurableFile.checkWritable(path)
        } catch {
            throw .destination(.latestLink, error, keptAt: nil)
        }
    }

    /// Points the latest link at `target`: a new link renamed over the old one, so it is never missing.
    private func link(_ path: String, to target: String) throws(DeliveryError) {
        try checkLatestLink(path)
        let temporary = path + ".\(getpid()).tmp"
        unlink(temporary)
        guard symlink(target, temporary) == 0, rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw .destination(.latestLink, DurableFile.WriteError(path: path, code: failure), keptAt: nil)
        }
    }

    private static func json(_ record: PhotoRecord, pretty: Bool) -> [UInt8] {
        WireJSON.bytes(record, pretty: pretty) + [0x0A]
    }

    private static func writeToStandardOutput(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { DurableFile.writeAll($0, to: STDOUT_FILENO) } == 0
    }
}
