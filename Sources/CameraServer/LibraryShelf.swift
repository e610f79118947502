import CameraOperator
import Checksums
import FileSystem
import FoundationEssentials
import Glibc
import HTTPServer
import PhotoLibrary

/// The library as the API reads it: pages of photos, one photo, its files, and deletion. One
/// connection to the index of its own, used by one request at a time.
actor LibraryShelf {
    private let library: PhotoLibrary
    private let links: GuestLinks?

    init(folder: String, links: GuestLinks?) throws(LibraryError) {
        library = try PhotoLibrary(folder: folder)
        self.links = links
    }

    /// A page of photos, newest first, with how many there are, as the API's JSON object.
    func page(offset: Int, limit: Int) throws(LibraryError) -> [UInt8] {
        let photos = try library.photos(offset: offset, limit: limit).map { links?.annotated($0.record) ?? $0.record }
        return JSONBody.bytes(["photos": photos, "offset": offset, "limit": limit, "total": try library.count()])
    }

    /// At most `limit` photos with ids above `id`, oldest first, each with its file's SHA-256 (a
    /// photo whose file cannot be read is left out), and whether more follow.
    func checksummed(after id: Int64, limit: Int) throws(LibraryError) -> (photos: [(LibraryPhoto, sha256: String)], more: Bool) {
        let photos = try library.photos(after: id, limit: limit + 1)
        let listed = photos.prefix(limit).compactMap { photo -> (LibraryPhoto, sha256: String)? in
            guard let data = try? library.contents(of: photo) else { return nil }
            return (photo, SHA256.hash(data).hexDigits)
        }
        return (listed, photos.count > limit)
    }

    func photo(id: Int64) throws(LibraryError) -> LibraryPhoto {
        try library.photo(id: id)
    }

    /// A photo's file, or its thumbnail, to send; `nil` when it is missing or not a regular file
    /// (a link or a FIFO put in its place is never followed or waited on).
    func file(of photo: LibraryPhoto, thumbnail: Bool = false) -> HTTPFile? {
        (try? library.openFile(of: photo, thumbnail: thumbnail)).flatMap(HTTPFile.init(descriptor:))
    }

    func delete(id: Int64) throws(LibraryError) {
        try library.delete(id: id)
    }

    func count() throws(LibraryError) -> Int {
        try library.count()
    }
}
