import Blocking
import CameraKit
import CameraOperator
import Checksums
import FileSystem
import FoundationEssentials
import Glibc
import GStreamer
import HTTPServer
import OperatorWire
import PhotoLibrary
import Synchronization

/// The library as the API reads it: pages of photos, one photo, its files, and deletion. One
/// connection to the index of its own, used only on a serial queue of its own: its reads, its
/// waits for a busy index and its checksums never hold a thread of Swift's shared pool.
final class LibraryShelf: @unchecked Sendable {
    // Safe to share: `library` (an index connection) and `checksums` are touched only by work
    // given to `lane`, which runs one piece at a time; `links` is immutable and Sendable;
    // `renditions` is a Mutex.
    private let library: PhotoLibrary
    /// The checksums of the files listed so far.
    private var checksums = FileChecksums()
    private let links: GuestLinks?
    private let lane = BlockingLane(label: "library-shelf")
    /// The renditions being made, by photo: a second request waits for the first's.
    private let renditions = Mutex<[Int64: Task<Result<Void, CaptureError>, Never>]>([:])

    init(folder: String, links: GuestLinks?) throws(LibraryError) {
        library = try PhotoLibrary(folder: folder)
        self.links = links
    }

    /// Runs `work` with the library on the lane.
    private func run<T: Sendable>(_ work: @escaping @Sendable (PhotoLibrary) throws(LibraryError) -> T) async throws(LibraryError) -> T {
        try await lane.run { () throws(LibraryError) -> T in try work(self.library) }
    }

    /// A page of the photos `selection` selects, newest first, with how many there are, as
    /// the API's JSON object.
    func page(offset: Int, limit: Int, of selection: PhotoLibrary.Selection = .init()) async throws(LibraryError) -> [UInt8] {
        let links = links
        return try await run { library throws(LibraryError) in
            let found = try library.page(of: selection, offset: offset, limit: limit)
            let total = try library.count(of: selection)
            let photos = found.map { links?.annotated($0.record) ?? $0.record }
            return WireJSON.bytes(PhotoPage(photos: photos, offset: offset, limit: limit, total: total))
        }
    }

    /// Counts `copies` more of photo `id` as printed when they keep it within `limit`; `false` when not.
    func countPrinted(_ copies: Int, of id: Int64, limit: Int) async throws(LibraryError) -> Bool {
        try await run { library throws(LibraryError) in try library.countPrinted(copies, of: id, limit: limit) }
    }

    /// Copies printed from the library in all.
    func printedCopies() async throws(LibraryError) -> Int {
        try await run { library throws(LibraryError) in try library.printedCopies() }
    }

    /// Takes back copies counted for a print that could not start.
    func uncountPrinted(_ copies: Int, of id: Int64) async {
        _ = try? await run { library throws(LibraryError) in try library.uncountPrinted(copies, of: id) }
    }

    /// The library's albums, each with how many photos it holds.
    func albums() async throws(LibraryError) -> [AlbumRecord] {
        try await run { library throws(LibraryError) in try library.albums().map { AlbumRecord(album: $0.name, photos: $0.count) } }
    }

    /// At most `limit` photos with ids above `id`, oldest first, each with its file's SHA-256 (a
    /// photo whose file cannot be read is left out), and whether more follow. Files are hashed as
    /// they are read, a piece at a time: a movie is never held in memory whole.
    func checksummed(after id: Int64, limit: Int) async throws(LibraryError) -> (photos: [(LibraryPhoto, sha256: String)], more: Bool) {
        try await run { library throws(LibraryError) in
            let photos = try library.photos(after: id, limit: limit + 1)
            let listed = photos.prefix(limit).compactMap { photo -> (LibraryPhoto, sha256: String)? in
                guard let descriptor = try? library.openFile(of: photo) else { return nil }
                defer { close(descriptor) }
                // A file listed before and unchanged since is not read again: a controller's
                // collections and its commands list the same photos again and again.
                return self.checksums.sha256(of: descriptor, key: photo.id).map { (photo, $0) }
            }
            return (listed, photos.count > limit)
        }
    }

    func photo(id: Int64) async throws(LibraryError) -> LibraryPhoto {
        try await run { library throws(LibraryError) in try library.photo(id: id) }
    }

    /// The pictures photo `id` was made from (a booth's shots and clip).
    func parts(of id: Int64) async throws(LibraryError) -> [LibraryPhoto] {
        try await run { library throws(LibraryError) in try library.parts(of: id) }
    }

    /// A photo's file, or its thumbnail, to send; `nil` when it is missing or not a regular file
    /// (a link or a FIFO put in its place is never followed or waited on).
    func file(of photo: LibraryPhoto, thumbnail: Bool = false) async -> HTTPFile? {
        let descriptor = try? await run { library throws(LibraryError) in try library.openFile(of: photo, thumbnail: thumbnail) }
        return descriptor.flatMap(HTTPFile.init(descriptor:))
    }

    /// A HEIC photo's JPEG rendition (``JPEGRendition``) to send: made the first time it is asked
    /// for and kept in the library; requests for the same photo meanwhile wait for that one making.
    /// `nil` when the photo is no HEIC, or is one not yet final (its file a JPEG meanwhile).
    ///
    /// - Throws: ``CaptureError`` when the photo cannot be read or decoded.
    func rendition(of photo: LibraryPhoto) async throws(CaptureError) -> HTTPFile? {
        guard photo.codec == "hevc", photo.kind == .photo, !photo.isProcessing else { return nil }
        if let kept = try? await keptRendition(of: photo) { return kept }
        let making: Task<Result<Void, CaptureError>, Never> = renditions.withLock { making in
            if let running = making[photo.id] { return running }
            let started = Task { () -> Result<Void, CaptureError> in
                do throws(CaptureError) {
                    let heic: [UInt8]
                    do throws(LibraryError) {
                        heic = try await self.contents(of: photo)
                    } catch {
                        throw CaptureError(.unreadableFile, error.message)
                    }
                    let jpeg = try await JPEGRendition.of(heic: heic)
                    do throws(LibraryError) {
                        try await self.run { library throws(LibraryError) in try library.keepRendition(jpeg, of: photo) }
                    } catch {
                        throw CaptureError(.pipeline, error.message)
                    }
                    return .success(())
                } catch {
                    return .failure(error)
                }
            }
            making[photo.id] = started
            return started
        }
        let made = await making.value
        renditions.withLock { if $0[photo.id] == making { $0[photo.id] = nil } }
        try made.get()
        do throws(LibraryError) {
            return try await keptRendition(of: photo)
        } catch {
            throw CaptureError(.pipeline, error.message)
        }
    }

    /// A picture as phones open it, read whole: a HEIC's JPEG rendition (made if it is not kept
    /// yet), any other photo's or clip's own file; with its media type.
    ///
    /// - Throws: ``CaptureError`` when the file cannot be read, or the rendition made.
    func shown(_ photo: LibraryPhoto) async throws(CaptureError) -> (bytes: [UInt8], type: String) {
        let isRendered = try await rendition(of: photo) != nil
        do throws(LibraryError) {
            guard isRendered else { return (try await contents(of: photo), photo.mediaType) }
            return (try await run { library throws(LibraryError) in try library.renditionContents(of: photo) }, "image/jpeg")
        } catch {
            throw CaptureError(.unreadableFile, error.message)
        }
    }

    /// The rendition kept for `photo`, opened; `nil` while none is kept.
    private func keptRendition(of photo: LibraryPhoto) async throws(LibraryError) -> HTTPFile? {
        try await run { library throws(LibraryError) in try library.openRendition(of: photo) }.flatMap(HTTPFile.init(descriptor:))
    }

    /// A photo's file, read whole.
    func contents(of photo: LibraryPhoto) async throws(LibraryError) -> [UInt8] {
        try await run { library throws(LibraryError) in try library.contents(of: photo) }
    }

    func delete(id: Int64) async throws(LibraryError) {
        try await run { library throws(LibraryError) in try library.delete(id: id) }
    }

    /// The photos in the library, and the bytes free for it on its disk (`nil` when the disk does not say).
    func census() async throws(LibraryError) -> (photos: Int, freeBytes: Int64?) {
        try await run { library throws(LibraryError) in
            var disk = statvfs()
            let free = statvfs(library.folder, &disk) == 0 ? Int64(disk.f_bavail) * Int64(disk.f_frsize) : nil
            return (try library.count(), free)
        }
    }
}
