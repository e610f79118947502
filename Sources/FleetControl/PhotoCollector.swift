import Checksums
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
/// interruption goes on where it stopped.
public final class PhotoCollector {
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

    /// The most pixels a collected thumbnail may declare (a photo's are 320 pixels long, a booth's
    /// shots' as large as their template's places): a larger one is no thumbnail and would cost
    /// every sheet it is laid on its memory, so the photo is collected without it.
    static let thumbnailBudget = (pixels: 2048 * 2048, side: 2048)
    /// The largest thumbnail taken with a photo.
    static let maximumThumbnail = 1 << 20

    /// Collects `fleet`'s photos into `destination`, downloading through `client`.
    public init(into destination: Destination, fleet: String, client: HTTPClient = HTTPClient()) {
        (self.destination, self.fleet, self.client) = (destination, fleet, client)
    }

    /// Keeps one photo, unless it is there already.
    ///
    /// - Throws: ``CollectionError``: the download failed or did not match (nothing kept), or the
    ///   destination could not be written or holds another file under the photo's name.
    public func collect(_ photo: FleetPhoto) async throws(CollectionError) -> Result {
        switch destination {
        case .folder(let folder):
            return try await collect(photo, into: folder)
        case .library(let library):
            return try await collect(photo, into: library)
        }
    }

    private func collect(_ photo: FleetPhoto, into folder: String) async throws(CollectionError) -> Result {
        let nodeFolder = folder + "/" + photo.node
        let path = nodeFolder + "/" + photo.fileName
        if let existing = try? RegularFile.contents(of: path, limit: FleetPhoto.maximumBytes) {
            guard existing.count == photo.byteCount, SHA256.hash(existing).hexDigits == photo.sha256 else {
                throw CollectionError(photo, .conflict(path))
            }
            return .had(path)
        }
        let data = try await download(photo)
        for folder in [folder, nodeFolder] where mkdir(folder, 0o755) != 0 && errno != EEXIST {
            throw CollectionError(photo, .cannotWrite(DurableFile.WriteError(path: folder, code: errno)))
        }
        do {
            try DurableFile.write(data, to: path, exclusive: true)
        } catch {
            throw CollectionError(photo, error.code == EEXIST ? .conflict(path) : .cannotWrite(error))
        }
        return .collected(path)
    }

    private func collect(_ photo: FleetPhoto, into library: PhotoLibrary) async throws(CollectionError) -> Result {
        let origin = "camctl-fleet:\(fleet)/\(photo.node)/\(photo.sha256)"
        do {
            if let kept = try library.photo(origin: origin) { return .had(kept.path) }
        } catch {
            throw CollectionError(photo, .library(error))
        }
        let data = try await download(photo)
        // A thumbnail that cannot be had leaves the photo without one; it is not worth losing the photo.
        var thumbnail: [UInt8] = []
        if let url = photo.thumbnailURL, let bytes = try? await client.get(url, limit: Self.maximumThumbnail), bytes.starts(with: [0xFF, 0xD8]),
           (try? PictureBudget.check(bytes, limit: Self.thumbnailBudget)) != nil {
            thumbnail = bytes
        }
        let new = NewPhoto(data: data, thumbnail: thumbnail, codec: photo.codec, width: photo.width, height: photo.height,
                           orientation: photo.orientation, capturedAt: photo.capturedAt, device: photo.device,
                           albums: [photo.node], origin: origin)
        do {
            return .collected(try library.add(new).path)
        } catch {
            throw CollectionError(photo, .library(error))
        }
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
