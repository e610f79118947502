import CameraOperator
import Foundation
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

    func photo(id: Int64) throws(LibraryError) -> LibraryPhoto {
        try library.photo(id: id)
    }

    func delete(id: Int64) throws(LibraryError) {
        try library.delete(id: id)
    }

    func count() throws(LibraryError) -> Int {
        try library.count()
    }
}
