import Checksums
import Dispatch
import FileSystem
import FoundationEssentials
import Glibc
import HTTPClient
import ImageMetadata
import PhotoLibrary

/// Brings a fleet's photos into one place: a folder (a subfolder per node, each file under the
/// node's own name for it) or a photo library (each photo in an album named after its node).
/// Every download is checked against the size and SHA-256 its node reported before it is kept,
/// and kept durably; a photo already there is not downloaded again, so collecting again after an
/// interruption goes on where it stopped. Photos may be collected many at once: their downloads
/// run side by side, and what touches the destination runs on a queue of the collector's own, off
/// Swift's shared threads: a library's (its index) one piece at a time; a folder's side by side,
/// so the disk syncs many files together, each file made whole under its name only if no other
/// is there (a `link`, which never replaces).
public final class PhotoCollector: @unchecked Sendable {
    // @unchecked Sendable: a library (whose index connection may not be shared) is used only by
    // work given to `writer`, which is serial for a library; a folder is only a path, and its
    // files are made by exclusive links, which two writers cannot both make; the rest is
    // immutable and Sendable.

    /// Where collected photos go.
    public enum Destination {
        case folder(String)
        case library(PhotoLibrary)
    }

    /// What became of one photo.
    public enum Result: Sendable, Equatable {
        /// Downloaded and kept: the file's path.
        case collected(String)
        /// Already there: its path.
        case had(String)
    }

    private let destination: Destination
    private let fleet: String
    private let client: HTTPClient
    /// Where the destination is touched: one piece at a time for a library, side by side for a folder.
    private let writer: DispatchQueue

    /// The most pixels a collected thumbnail may declare (a photo's are 320 pixels long, a booth's
    /// shots' as large as their template's places): a larger one is no thumbnail and would cost
    /// every sheet it is laid on its memory, so the photo is collected without it.
    static let thumbnailBudget = (pixels: 2048 * 2048, side: 2048)
    /// The largest thumbnail taken with a photo.
    static let maximumThumbnail = 1 << 20

    /// Collects `fleet`'s photos into `destination`, downloading through `client`.
    public init(into destination: Destination, fleet: String, client: HTTPClient = HTTPClient()) {
        (self.destination, self.fleet, self.client) = (destination, fleet, client)
        if case .folder = destination {
            writer = DispatchQueue(label: "camctl.collector", attributes: .concurrent)
        } else {
            writer = DispatchQueue(label: "camctl.collector")
        }
    }

    /// Keeps one photo, unless it is there already.
    ///
    /// - Throws: ``CollectionError``: the download failed or did not match (nothing kept), or the
    ///   destination could not be written or holds another file under the photo's name.
    public func collect(_ photo: FleetPhoto) async throws(CollectionError) -> Result {
        if let had = try await onWriter({ () throws(CollectionError) in try self.existing(photo) }) { return .had(had) }
        let data = try await download(photo)
        // A thumbnail that cannot be had leaves the photo without one; it is not worth losing the photo.
        var thumbnail: [UInt8] = []
        if case .library = destination, let url = photo.thumbnailURL, let bytes = try? await client.get(url, limit: Self.maximumThumbnail),
           bytes.starts(with: [0xFF, 0xD8]), (try? PictureBudget.check(bytes, limit: Self.thumbnailBudget)) != nil {
            thumbnail = bytes
        }
        let kept = thumbnail
        return try await onWriter { () throws(CollectionError) in try self.keep(photo, data: data, thumbnail: kept) }
    }

    /// Runs `work` on the writer's queue.
    private func onWriter<T: Sendable>(_ work: @escaping @Sendable () throws(CollectionError) -> T) async throws(CollectionError) -> T {
        let result: Swift.Result<T, CollectionError> = await withCheckedContinuation { continuation in
            writer.async { continuation.resume(returning: Swift.Result { () throws(CollectionError) in try work() }) }
        }
        return try result.get()
    }

    /// Where the photo is kept already; `nil` when it is not.
    private func existing(_ photo: FleetPhoto) throws(CollectionError) -> String? {
        switch destination {
        case .folder(let folder):
            let path = folder + "/" + photo.node + "/" + photo.fileName
            guard let existing = try? RegularFile.contents(of: path, limit: FleetPhoto.maximumBytes) else { return nil }
            guard existing.count == photo.byteCount, SHA256.hash(existing).hexDigits == photo.sha256 else {
                throw CollectionError(photo, .conflict(path))
            }
            return path
        case .library(let library):
            do {
                return try library.photo(origin: origin(of: photo))?.path
            } catch {
                throw CollectionError(photo, .library(error))
            }
        }
    }

    /// Keeps a downloaded photo durably; returns where, or where it was kept meanwhile (by
    /// another collection of the same photo, between the look and the download).
    private func keep(_ photo: FleetPhoto, data: [UInt8], thumbnail: [UInt8]) throws(CollectionError) -> Result {
        if let had = try existing(photo) { return .had(had) }
        switch destination {
        case .folder(let folder):
            let nodeFolder = folder + "/" + photo.node
            let path = nodeFolder + "/" + photo.fileName
            for folder in [folder, nodeFolder] where mkdir(folder, 0o755) != 0 && errno != EEXIST {
                throw CollectionError(photo, .cannotWrite(DurableFile.WriteError(path: folder, code: errno)))
            }
            do {
                try DurableFile.write(data, to: path, exclusive: true)
            } catch where error.code == EEXIST {
                // Written meanwhile by another collection: the same photo, or another file there.
                if let had = try existing(photo) { return .had(had) }
                throw CollectionError(photo, .conflict(path))
            } catch {
                throw CollectionError(photo, .cannotWrite(error))
            }
            return .collected(path)
        case .library(let library):
            let new = NewPhoto(data: data, thumbnail: thumbnail, codec: photo.codec, width: photo.width, height: photo.height,
                               orientation: photo.orientation, capturedAt: photo.capturedAt, device: photo.device,
                               albums: [photo.node], origin: origin(of: photo))
            do {
                return .collected(try library.add(new).path)
            } catch {
                // Kept meanwhile by another collection (another process's, into the same library).
                if let had = try? existing(photo) { return .had(had) }
                throw CollectionError(photo, .library(error))
            }
        }
    }

    /// The name the library keeps a collected photo under once: its fleet, node and checksum.
    private func origin(of photo: FleetPhoto) -> String {
        "camctl-fleet:\(fleet)/\(photo.node)/\(photo.sha256)"
    }

    /// The photo's file, as its node reported it.
    private func download(_ photo: FleetPhoto) async throws(CollectionError) -> [UInt8] {
        let data: [UInt8]
        do {
            data = try await client.get(photo.url, limit: photo.byteCount)
        } catch {
            throw CollectionError(photo, .download(error))
        }
        guard data.count == photo.byteCount, SHA256.hash(data).hexDigits == photo.sha256 else {
            throw CollectionError(photo, .mismatch(received: data.count))
        }
        return data
    }
}

/// Why a photo of a fleet was not collected.
public struct CollectionError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable {
        /// The download failed; trying again later may work.
        case download(HTTPClientError)
        /// What came is not what the node reported (size or SHA-256); nothing was kept.
        case mismatch(received: Int)
        /// Another file is where the photo would go; it was left as it is.
        case conflict(String)
        case cannotWrite(DurableFile.WriteError)
        case library(LibraryError)
    }

    public let photo: FleetPhoto
    public let reason: Reason

    init(_ photo: FleetPhoto, _ reason: Reason) {
        (self.photo, self.reason) = (photo, reason)
    }

    /// Whether collecting can go on with the next photo (the destination is fine).
    public var concernsOnlyThisPhoto: Bool {
        switch reason {
        case .download, .mismatch: true
        case .conflict, .cannotWrite, .library: false
        }
    }

    public var description: String {
        let which = "photo \(photo.id) of \(photo.node)"
        return switch reason {
        case .download(let error): "\(which) could not be downloaded (\(error.reason)); collect again when the node can be reached"
        case .mismatch(let received):
            "\(which) came as \(received) bytes that do not match the \(photo.byteCount) bytes and SHA-256 its node reported, so it was not kept; collect again"
        case .conflict(let path): "\(path) is there and is not \(which), so it was left as it is; collect into another folder"
        case .cannotWrite(let error): "\(error.path) could not be written (\(error.reason)); \(which) was not kept"
        case .library(let error): "\(which) could not be added to the library: \(error.message)"
        }
    }
}
