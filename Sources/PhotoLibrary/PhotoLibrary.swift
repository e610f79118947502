import FileSystem
import FoundationEssentials
import GIF
import Glibc
import HEIF
import ImageMetadata

/// Photos on disk with an SQLite index: files named by capture time, thumbnails beside them in
/// `thumbnails/`, and `library.sqlite` (WAL mode) recording each photo's id, file, capture time,
/// camera, size, codec, orientation, thumbnail, albums and, for a copy of a photo kept elsewhere, its origin.
///
/// A photo is written durably (temporary file, fsync, rename, folder fsync) before its row, and
/// both happen under the index's write lock, so several processes may add photos at once and a
/// crash leaves a whole photo or nothing. Opening the library reconciles files and rows.
///
/// Only names the library gave are its photos: every path read from the index is a plain name
/// inside the folder, and reconciling indexes only files named as the library names them.
public final class PhotoLibrary {
    /// The library folder.
    public let folder: String
    /// What opening the library found and repaired.
    public private(set) var reconciliation = Reconciliation()
    /// Whether the library was opened only to be read: nothing in its folder is written.
    public let isReadOnly: Bool

    let database: Database
    var indexPath: String { folder + "/library.sqlite" }
    var thumbnailFolder: String { folder + "/thumbnails" }

    /// What opening found out of step between files and rows, and repaired.
    public struct Reconciliation: Sendable, Equatable {
        /// Photo files without a row (a crash after the rename), now indexed.
        public var indexed: [LibraryPhoto] = []
        /// Rows whose file is gone (deleted by hand), now dropped.
        public var dropped: [LibraryPhoto] = []
        /// Temporary files left by a crash, and thumbnails of no photo, now removed.
        public var removedLeftovers = 0
        /// Files named as photos that are not whole pictures (damaged, or not photos at all),
        /// left as they are and not indexed; full paths.
        public var skipped: [String] = []
        /// Movies whose recording was cut short (its process ended), kept up to their last whole fragment.
        public var recoveredMovies: [LibraryPhoto] = []

        public var isEmpty: Bool {
            indexed.isEmpty && dropped.isEmpty && removedLeftovers == 0 && skipped.isEmpty && recoveredMovies.isEmpty
        }
    }

    /// Opens the library in `folder`, creating it if needed, and reconciles files and rows.
    ///
    /// With `forReading`, the library is only read: nothing in its folder is created, repaired or
    /// removed (a library not made yet reads as empty), and it is reconciled the next time it is
    /// opened to be written.
    public init(folder: String, forReading: Bool = false) throws(LibraryError) {
        guard !folder.isEmpty else { throw LibraryError(.cannotCreate, "the library folder's name is empty; name a folder") }
        self.folder = folder
        let index = folder + "/library.sqlite"
        try Self.checkKinds(folder: folder, index: index)
        isReadOnly = forReading
        if forReading {
            do {
                if access(index, F_OK) == 0 {
                    database = try Database(readingOnly: index)
                } else {
                    database = try Database(path: ":memory:")
                    try database.execute(Self.schema)
                }
            } catch {
                throw LibraryError(error, index: index)
            }
            return
        }
        try Self.checkSubfolders(of: folder)
        for path in [folder, folder + "/thumbnails"] {
            let failure = Self.makeFolder(path)
            guard failure == 0 else { throw LibraryError(DurableFile.WriteError(path: path, code: failure)) }
        }
        do {
            database = try Database(path: index)
            try database.execute(Self.schema)
            try addMissingColumns()
        } catch {
            throw LibraryError(error, index: index)
        }
        try reconcile()
    }

    /// Refuses a library folder that is a file, or an index that is not a file (a link, a folder,
    /// a special file), saying what is there.
    private static func checkKinds(folder: String, index: String) throws(LibraryError) {
        var status = stat()
        if stat(folder, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
            throw LibraryError(.cannotCreate, "the library folder \(folder) is a file, not a folder; name a folder for the library")
        }
        if lstat(index, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let what = status.st_mode & S_IFMT == S_IFLNK ? "a symbolic link, which the library never follows" : "not a file (a folder or a special file is there)"
            throw LibraryError(.corrupt, "the library index \(index) is \(what); move it away and the library indexes its photos again when it next opens")
        }
    }

    /// Refuses to write a library whose subfolder is a link (or anything but a folder): its files
    /// would be written, and others removed, wherever the link leads.
    private static func checkSubfolders(of folder: String) throws(LibraryError) {
        for name in subfolders {
            var status = stat()
            let path = folder + "/" + name
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFDIR else { continue }
            let what = status.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "not a folder"
            throw LibraryError(.cannotCreate, "\(path) is \(what), where the library keeps a folder of its own files; move it away and try again")
        }
    }

    // MARK: - Adding

    /// Adds a photo: its file and thumbnail are durable on disk before its row is committed.
    ///
    /// - Throws: A ``LibraryError`` (disk full, read-only folder, …); nothing of the photo stays behind.
    @discardableResult
    public func add(_ photo: NewPhoto) throws(LibraryError) -> LibraryPhoto {
        guard !isReadOnly else { throw LibraryError(.permissionDenied, "the library \(folder) may not be written; choose a library folder you can write to") }
        // The files written so far; removed when anything fails, the commit included, so a photo
        // reported lost is not found and indexed by the next opening.
        var written: [String] = []
        do {
            return try database.writeTransaction { () throws -> LibraryPhoto in
                let name = try writeUniquely(photo)
                written.append(folder + "/" + name)
                var thumbnailName: String?
                if !photo.thumbnail.isEmpty {
                    let thumbnail = Self.thumbnailName(for: name)
                    try DurableFile.write(photo.thumbnail, to: thumbnailFolder + "/" + thumbnail, exclusive: true)
                    written.append(thumbnailFolder + "/" + thumbnail)
                    thumbnailName = thumbnail
                }
                var rawName: String?
                if let raw = photo.raw {
                    try makeOwnFolder(Self.rawFolder)
                    let name = Self.rawName(for: name, extension: raw.fileExtension)
                    try DurableFile.write(raw.data, to: folder + "/" + Self.rawFolder + "/" + name, exclusive: true)
                    written.append(folder + "/" + Self.rawFolder + "/" + name)
                    rawName = name
                }
                if let pending = photo.pending {
                    let spooled = spoolFolder + "/" + Self.spoolName(for: name)
                    try makeSpoolFolder()
                    // Not synced: a kill leaves it whole, and a power cut that loses it leaves the
                    // proxy as the photo (its checksum tells), so the shutter does not wait for the disk.
                    try DurableFile.write(contents: pending, to: spooled, exclusive: true, syncing: false)
                    written.append(spooled)
                }
                let id = try insertRow(file: name, thumbnail: thumbnailName, capturedAt: photo.capturedAt, device: photo.device,
                                       width: photo.width, height: photo.height, codec: photo.codec,
                                       orientation: photo.orientation, byteCount: photo.data.count,
                                       state: photo.pending == nil ? "final" : "processing", movieDuration: photo.duration, raw: rawName)
                for album in photo.albums {
                    try database.query("INSERT OR IGNORE INTO albums (photo_id, name) VALUES (?, ?)", [.integer(id), .text(album)])
                }
                if let origin = photo.origin {
                    try database.query("INSERT INTO origins (photo_id, origin) VALUES (?, ?)", [.integer(id), .text(origin)])
                }
                try insertParts(photo.parts, of: id)
                return try self.photo(id: id)
            }
        } catch {
            written.forEach { unlink($0) }
            if !written.isEmpty { DurableFile.syncFolder(folder) }
            throw Self.libraryError(error, index: indexPath, doing: "the photo could not be added to the library")
        }
    }

    /// The library error any failure met while changing the library means.
    static func libraryError(_ error: any Error, index: String, doing context: String) -> LibraryError {
        switch error {
        case let error as LibraryError: error
        case let error as DurableFile.WriteError: LibraryError(error)
        case let error as DatabaseError: LibraryError(error, index: index)
        default: LibraryError(.ioError, "\(context): \(error)")
        }
    }

    /// Writes the photo under a name of its capture time and a random suffix that no other file has.
    private func writeUniquely(_ photo: NewPhoto) throws(DurableFile.WriteError) -> String {
        while true {
            let name = Self.fileName(capturedAt: photo.capturedAt, extension: photo.fileExtension)
            do {
                try DurableFile.write(photo.data, to: folder + "/" + name, exclusive: true)
                return name
            } catch where error.code == EEXIST {
                continue  // another writer took the name: draw another suffix
            }
        }
    }

    // MARK: - Reading

    /// Every photo, newest first.
    public func photos() throws(LibraryError) -> [LibraryPhoto] {
        try rows("SELECT * FROM photos ORDER BY captured_at DESC, id DESC")
    }

    /// At most `limit` photos with ids above `id`, oldest id first: a page that photos added or
    /// deleted meanwhile do not shift.
    public func photos(after id: Int64, limit: Int) throws(LibraryError) -> [LibraryPhoto] {
        try rows("SELECT * FROM photos WHERE id > ? ORDER BY id LIMIT ?", [.integer(id), .integer(Int64(max(0, limit)))])
    }

    /// The photo added with an origin (``NewPhoto/origin``), if the library has it.
    public func photo(origin: String) throws(LibraryError) -> LibraryPhoto? {
        try rows("SELECT photos.* FROM photos JOIN origins ON origins.photo_id = photos.id WHERE origins.origin = ?", [.text(origin)]).first
    }

    /// The photos in album `name`, newest first; none for an album no photo is in.
    public func photos(inAlbum name: String) throws(LibraryError) -> [LibraryPhoto] {
        try rows("SELECT photos.* FROM photos JOIN albums ON albums.photo_id = photos.id WHERE albums.name = ? "
                 + "ORDER BY photos.captured_at DESC, photos.id DESC", [.text(name)])
    }

    /// Which photos a page lists: those of one album (every photo for `nil`), and only those
    /// made of other photos when `composedOnly`.
    public struct Selection: Sendable, Equatable {
        public var album: String?
        public var composedOnly = false

        public init(album: String? = nil, composedOnly: Bool = false) {
            (self.album, self.composedOnly) = (album, composedOnly)
        }

        /// The join and condition that select them, and the condition's values.
        fileprivate var sql: (from: String, parameters: [Database.Parameter]) {
            var from = "photos", conditions: [String] = [], parameters: [Database.Parameter] = []
            if let album {
                from += " JOIN albums ON albums.photo_id = photos.id"
                conditions.append("albums.name = ?")
                parameters.append(.text(album))
            }
            if composedOnly { conditions.append("EXISTS (SELECT 1 FROM parts WHERE parts.picture_id = photos.id)") }
            return (from + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")), parameters)
        }
    }

    /// At most `limit` of the photos `selection` selects, newest first, after skipping `offset` of them.
    public func page(of selection: Selection, offset: Int, limit: Int) throws(LibraryError) -> [LibraryPhoto] {
        let (from, parameters) = selection.sql
        return try rows("SELECT photos.* FROM \(from) ORDER BY photos.captured_at DESC, photos.id DESC LIMIT ? OFFSET ?",
                        parameters + [.integer(Int64(max(0, limit))), .integer(Int64(max(0, offset)))])
    }

    /// How many photos `selection` selects (every photo, by default).
    public func count(of selection: Selection = Selection()) throws(LibraryError) -> Int {
        let (from, parameters) = selection.sql
        do {
            return Int(try database.query("SELECT COUNT(*) AS count FROM \(from)", parameters).first?.integer("count") ?? 0)
        } catch {
            throw LibraryError(error, index: indexPath)
        }
    }

    /// The pictures `id` was made from (a booth's shots, and its clip), oldest first.
    public func parts(of id: Int64) throws(LibraryError) -> [LibraryPhoto] {
        try rows("SELECT photos.* FROM photos JOIN parts ON parts.part_id = photos.id WHERE parts.picture_id = ? "
                 + "ORDER BY photos.captured_at, photos.id", [.integer(id)])
    }

    /// Records that picture `id` was made with `parts` too (a booth's clip, made after its picture).
    public func addParts(_ parts: [Int64], to id: Int64) throws(LibraryError) {
        guard !isReadOnly else { throw LibraryError(.permissionDenied, "the library \(folder) may not be written") }
        do {
            try database.writeTransaction { () throws in try insertParts(parts, of: id) }
        } catch {
            throw Self.libraryError(error, index: indexPath, doing: "the parts of photo \(id) could not be recorded")
        }
    }

    private func insertParts(_ parts: [Int64], of id: Int64) throws {
        for part in parts where part != id {
            // A part no longer in the library (deleted meanwhile) is left out, not an error.
            try database.query("INSERT OR IGNORE INTO parts (picture_id, part_id) SELECT ?, id FROM photos WHERE id = ?",
                               [.integer(id), .integer(part)])
        }
    }

    /// The albums photos are in, by name, each with how many photos it holds.
    public func albums() throws(LibraryError) -> [(name: String, count: Int)] {
        do {
            return try database.query("SELECT albums.name AS name, COUNT(*) AS count FROM albums JOIN photos ON photos.id = albums.photo_id "
                                      + "GROUP BY albums.name ORDER BY albums.name").map { row in
                (row.text("name") ?? "", Int(row.integer("count") ?? 0))
            }
        } catch {
            throw LibraryError(error, index: indexPath)
        }
    }

    /// The photo with an id.
    ///
    /// - Throws: ``LibraryError/Kind/notFound`` when there is none.
    public func photo(id: Int64) throws(LibraryError) -> LibraryPhoto {
        guard let photo = try rows("SELECT * FROM photos WHERE id = ?", [.integer(id)]).first else {
            throw LibraryError(.notFound, "the library has no photo \(id)", remedy: .listPhotos)
        }
        return photo
    }

    /// The photos of a query's rows. A row whose file is not named as the library names its photos
    /// (a damaged or tampered index) is left out, and a thumbnail not named as that photo's is
    /// dropped, so no other file, in the library or outside it, is ever read or removed for a row.
    func rows(_ sql: String, _ parameters: [Database.Parameter] = []) throws(LibraryError) -> [LibraryPhoto] {
        do {
            return try database.query(sql, parameters).filter { $0.text("file").map(Self.isPhotoFile) == true }.map { row throws(DatabaseError) in
                let file = row.text("file") ?? ""
                let id = row.integer("id") ?? 0
                let albums = try database.query("SELECT name FROM albums WHERE photo_id = ? ORDER BY name", [.integer(id)])
                    .compactMap { $0.text("name") }
                let isComposed = try !database.query("SELECT 1 AS composed FROM parts WHERE picture_id = ? LIMIT 1", [.integer(id)]).isEmpty
                return LibraryPhoto(
                    id: id, path: folder + "/" + file,
                    thumbnailPath: row.text("thumbnail").flatMap { Self.isValidThumbnail($0, of: file) ? thumbnailFolder + "/" + $0 : nil },
                    capturedAt: Self.date(row.text("captured_at") ?? "") ?? Date(timeIntervalSince1970: 0),
                    device: row.text("device") ?? "", width: Int(row.integer("width") ?? 0),
                    height: Int(row.integer("height") ?? 0), codec: row.text("codec") ?? "",
                    orientation: Int(row.integer("orientation") ?? 1), byteCount: Int(row.integer("byte_count") ?? 0),
                    albums: albums, isProcessing: row.text("state") == "processing",
                    kind: LibraryPhoto.Kind(rawValue: row.text("kind") ?? "") ?? .photo,
                    duration: row.integer("duration_ms").map { Double($0) / 1000 }, isComposed: isComposed,
                    rawPath: row.text("raw").flatMap { Self.isValidRaw($0, of: file) ? folder + "/" + Self.rawFolder + "/" + $0 : nil })
            }
        } catch {
            throw LibraryError(error, index: indexPath)
        }
    }

    // MARK: - Changing

    /// Removes a photo: its row, its file, its thumbnail and its rendition (each only when it is a
    /// regular file: a link or anything else put in its place is left).
    public func delete(id: Int64) throws(LibraryError) {
        guard !isReadOnly else { throw LibraryError(.permissionDenied, "the library \(folder) may not be written, so photo \(id) cannot be deleted") }
        let photo = try photo(id: id)
        do {
            try database.writeTransaction {
                try database.query("DELETE FROM photos WHERE id = ?", [.integer(id)])
                let spooled = photo.isProcessing ? "spool/" + Self.spoolName(for: photo.fileName) : nil
                let raw = photo.rawPath.map { Self.rawFolder + "/" + URL(fileURLWithPath: $0).lastPathComponent }
                for name in [photo.fileName, photo.thumbnailName.map { "thumbnails/" + $0 }, spooled, Self.renditionName(of: photo), raw].compactMap({ $0 }) {
                    try ConfinedFile.remove(name, in: folder)
                }
            }
        } catch {
            throw Self.libraryError(error, index: indexPath, doing: "photo \(id) could not be deleted")
        }
        DurableFile.syncFolder(folder)
    }

    /// The bytes of a photo's file, or of its thumbnail, at most `limit`; read without following a
    /// link inside the library, from a regular file only.
    ///
    /// - Throws: ``LibraryError/Kind/ioError`` when the file is missing, is not a regular file
    ///   (a link, a FIFO) or is larger than `limit`.
    public func contents(of photo: LibraryPhoto, thumbnail: Bool = false, limit: Int = Int.max) throws(LibraryError) -> [UInt8] {
        let descriptor = try openFile(of: photo, thumbnail: thumbnail)
        defer { close(descriptor) }
        do {
            return try RegularFile.contents(of: descriptor, path: thumbnail ? photo.thumbnailPath ?? photo.path : photo.path, limit: limit)
        } catch {
            throw LibraryError(.ioError, "\(error.path) could not be read (\(error.reason)); the photo's file is missing or damaged")
        }
    }

    /// A photo's file, or its thumbnail, opened to be read as ``contents(of:thumbnail:limit:)``
    /// reads it; the caller closes the descriptor.
    public func openFile(of photo: LibraryPhoto, thumbnail: Bool = false) throws(LibraryError) -> Int32 {
        let name: String
        if thumbnail {
            guard let thumbnailName = photo.thumbnailName else { throw LibraryError(.notFound, "photo \(photo.id) has no thumbnail") }
            name = "thumbnails/" + thumbnailName
        } else {
            name = photo.fileName
        }
        guard Self.isPhotoFile(URL(fileURLWithPath: name).lastPathComponent) else {
            throw LibraryError(.notFound, "\(photo.path) is not named as a file of the library \(folder)")
        }
        do {
            return try ConfinedFile.open(name, in: folder)
        } catch {
            throw LibraryError(.ioError, "\(error.path) could not be read (\(error.reason)); the photo's file is missing or damaged")
        }
    }

    /// A HEIC photo's JPEG rendition, opened to be read as ``openFile(of:thumbnail:)`` opens
    /// files; `nil` when none was kept yet (``keepRendition(_:of:)``). The caller closes it.
    ///
    /// - Throws: ``LibraryError/Kind/ioError`` when something other than a regular file stands in its place.
    public func openRendition(of photo: LibraryPhoto) throws(LibraryError) -> Int32? {
        guard let name = Self.renditionName(of: photo) else { return nil }
        do {
            return try ConfinedFile.open(name, in: folder)
        } catch where error.kind == .missing {
            return nil
        } catch {
            throw LibraryError(.ioError, "\(error.path) could not be read (\(error.reason)); remove it, and it is made again")
        }
    }

    /// A HEIC photo's kept JPEG rendition, read whole.
    ///
    /// - Throws: ``LibraryError/Kind/notFound`` when none is kept; ``LibraryError/Kind/ioError`` when it cannot be read.
    public func renditionContents(of photo: LibraryPhoto) throws(LibraryError) -> [UInt8] {
        guard let descriptor = try openRendition(of: photo) else { throw LibraryError(.notFound, "photo \(photo.id) has no JPEG rendition kept") }
        defer { close(descriptor) }
        do {
            return try RegularFile.contents(of: descriptor, path: folder + "/" + (Self.renditionName(of: photo) ?? ""), limit: 256 << 20)
        } catch {
            throw LibraryError(.ioError, "\(error.path) could not be read (\(error.reason)); remove it, and it is made again")
        }
    }

    /// Keeps `jpeg` as the JPEG rendition of HEIC photo `photo`, whole or not at all, beside the
    /// library's thumbnails; deleting the photo deletes it.
    ///
    /// - Throws: ``LibraryError`` when the photo is no HEIC, or the rendition cannot be written.
    public func keepRendition(_ jpeg: [UInt8], of photo: LibraryPhoto) throws(LibraryError) {
        guard !isReadOnly else { throw LibraryError(.permissionDenied, "the library \(folder) may not be written, so no rendition can be kept") }
        guard let name = Self.renditionName(of: photo) else { throw LibraryError(.notFound, "photo \(photo.id) is no HEIC to make a rendition of") }
        try makeOwnFolder(Self.renditionFolder)
        do {
            try DurableFile.write(jpeg, to: folder + "/" + name, syncing: false)
        } catch {
            throw LibraryError(error)
        }
    }

    /// Makes the library's subfolder `name` when it is missing (its entry synced into the library
    /// folder, so a file kept in it is found after a power cut): a folder of the library's own,
    /// never a link put in its place.
    ///
    /// - Throws: ``LibraryError`` when something else stands there or it cannot be made.
    func makeOwnFolder(_ name: String) throws(LibraryError) {
        let path = folder + "/" + name
        if ConfinedFile.status(of: name, in: folder) == nil {
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw LibraryError(DurableFile.WriteError(path: path, code: errno)) }
            DurableFile.syncFolder(folder)
        }
        guard let status = ConfinedFile.status(of: name, in: folder), status.st_mode & S_IFMT == S_IFDIR else {
            throw LibraryError(.ioError, "\(path) is not a folder of the library's; remove what stands there")
        }
    }

    /// Copies a photo's file to `destination` (a file path, or a folder to copy it into under its
    /// own name), as ``OutputFile`` writes; returns the path written. A destination inside the
    /// library folder is refused: the library's files are its own.
    public func export(id: Int64, to destination: String) throws(LibraryError) -> String {
        let photo = try photo(id: id)
        var target = destination
        var isFolder = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder), isFolder {
            target = destination + "/" + photo.fileName
        }
        guard !contains(target) else {
            throw LibraryError(DurableFile.WriteError(path: target, refusal: .libraryFile(folder: folder)))
        }
        do {
            try Self.checkDestination(target)
        } catch {
            throw LibraryError(error)
        }
        let data = try contents(of: photo)
        do {
            try OutputFile.write(data, to: target)
        } catch {
            throw LibraryError(error)
        }
        return target
    }

    /// Whether `path` is the library's folder or lies inside it (its index, a photo, a thumbnail,
    /// or a new name there), symbolic links resolved: what no copy or export may write over.
    public func contains(_ path: String) -> Bool {
        OutputFile.isInside(path, folder: folder)
    }

    // MARK: - Reconciling

    /// Brings files and rows into step, under the write lock so no writer is half-way through.
    /// Only the library's own names are indexed or removed (``isPhotoFile(_:)``, ``isTemporary(_:)``, …).
    private func reconcile() throws(LibraryError) {
        var found = Reconciliation()
        do {
            try database.writeTransaction {
                let known = try database.query("SELECT id, file, thumbnail, state FROM photos")
                let files = Set(ConfinedFile.names(of: folder))
                var indexedFiles = Set<String>(), keptThumbnails = Set<String>()
                // Stems of photos being processed (their final file may be written already) and of
                // final photos (a proxy of theirs left by a process ended between the two steps).
                var processingStems = Set<String>(), finalStems = Set<String>()
                for row in known {
                    guard let id = row.integer("id") else { continue }
                    let file = row.text("file") ?? ""
                    if Self.isPhotoFile(file), files.contains(file) {
                        indexedFiles.insert(file)
                        if row.text("state") == "processing" { processingStems.insert(Self.stem(of: file)) } else { finalStems.insert(Self.stem(of: file)) }
                    } else {
                        // A row naming no file of the library's (deleted by hand, or a damaged row): dropped, nothing touched.
                        if let photo = try? photo(id: id) { found.dropped.append(photo) }
                        try database.query("DELETE FROM photos WHERE id = ?", [.integer(id)])
                    }
                }
                var unindexed: [String] = []
                for name in files where Self.isPhotoFile(name) {
                    // A thumbnail is kept while a file of its name's stem is there.
                    keptThumbnails.insert(Self.thumbnailName(for: name))
                    if !indexedFiles.contains(name), !processingStems.contains(Self.stem(of: name)) { unindexed.append(name) }
                }
                for name in unindexed.sorted() {
                    if finalStems.contains(Self.stem(of: name)) {  // a proxy whose photo became final
                        if try ConfinedFile.remove(name, in: folder) { found.removedLeftovers += 1 }
                        continue
                    }
                    guard let photo = try indexFound(name) else {
                        found.skipped.append(folder + "/" + name)
                        continue
                    }
                    found.indexed.append(photo)
                }
                for name in files where Self.isTemporary(name) {
                    if try ConfinedFile.remove(name, in: folder) { found.removedLeftovers += 1 }
                }
                for name in ConfinedFile.names(in: "thumbnails", of: folder)
                where (Self.isThumbnail(name) && !keptThumbnails.contains(name)) || Self.isTemporary(name) {
                    if try ConfinedFile.remove("thumbnails/" + name, in: folder) { found.removedLeftovers += 1 }
                }
                // Renditions of photos no longer there.
                let stems = Set(files.filter(Self.isPhotoFile).map(Self.stem(of:)))
                for name in ConfinedFile.names(in: Self.renditionFolder, of: folder)
                where (Self.isPhotoFile(name) && !stems.contains(Self.stem(of: name))) || Self.isTemporary(name) {
                    if try ConfinedFile.remove(Self.renditionFolder + "/" + name, in: folder) { found.removedLeftovers += 1 }
                }
                // A RAW file is a camera's original, which may be on no card any more: one whose photo
                // is gone is left for its owner, never removed here; only a half-written one is.
                for name in ConfinedFile.names(in: Self.rawFolder, of: folder) where Self.isTemporary(name) {
                    if try ConfinedFile.remove(Self.rawFolder + "/" + name, in: folder) { found.removedLeftovers += 1 }
                }
                try recoverRecordings(into: &found)
                // Spooled frames of photos no longer processing (finished, deleted, or never recorded).
                for name in ConfinedFile.names(in: "spool", of: folder)
                where (Self.isSpooled(name) && !processingStems.contains(Self.stem(of: name))) || Self.isTemporary(name) {
                    if try ConfinedFile.remove("spool/" + name, in: folder) { found.removedLeftovers += 1 }
                }
            }
        } catch {
            throw Self.libraryError(error, index: indexPath, doing: "the library \(folder) could not be reconciled")
        }
        reconciliation = found
    }

    /// Indexes a photo file that has no row, with what the file itself says; `nil` (not indexed)
    /// when it is not a regular file or not a whole picture of its kind.
    private func indexFound(_ name: String) throws -> LibraryPhoto? {
        guard let status = ConfinedFile.status(of: name, in: folder), status.st_mode & S_IFMT == S_IFREG else { return nil }
        let modified = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        let thumbnail = Self.thumbnailName(for: name)
        let hasThumbnail = ConfinedFile.status(of: "thumbnails/" + thumbnail, in: folder).map { $0.st_mode & S_IFMT == S_IFREG } ?? false
        if name.hasSuffix(".mp4") {
            guard let descriptor = try? ConfinedFile.open(name, in: folder) else { return nil }
            defer { close(descriptor) }
            guard let movie = try? MovieFile(descriptor: descriptor, path: folder + "/" + name), movie.frameCount > 0 else { return nil }
            let id = try insertRow(file: name, thumbnail: hasThumbnail ? thumbnail : nil, capturedAt: modified.addingTimeInterval(-movie.duration),
                                   device: "unknown", width: movie.width, height: movie.height, codec: "h264", orientation: 1,
                                   byteCount: Int(status.st_size), movieDuration: movie.duration)
            return try photo(id: id)
        }
        guard let data = try? ConfinedFile.contents(of: name, in: folder, limit: Int.max) else { return nil }
        if name.hasSuffix(".gif") {
            guard let animation = try? GIFFile(parsing: data), animation.width > 0, animation.height > 0 else { return nil }
            let id = try insertRow(file: name, thumbnail: hasThumbnail ? thumbnail : nil, capturedAt: modified, device: "unknown",
                                   width: animation.width, height: animation.height, codec: "gif", orientation: 1,
                                   byteCount: data.count, movieDuration: animation.duration)
            return try photo(id: id)
        }
        let codec = name.hasSuffix(".heic") ? "hevc" : "jpeg"
        let size = codec == "hevc"
            ? (try? HEIFContents(parsing: data))?.displaySize
            : JPEGFile.dimensions(of: data)
        guard let size, size.width > 0, size.height > 0 else { return nil }
        // A RAW file kept beside it comes back with it.
        let raw = ConfinedFile.names(in: Self.rawFolder, of: folder).filter { Self.isValidRaw($0, of: name) }.min()
        let id = try insertRow(file: name, thumbnail: hasThumbnail ? thumbnail : nil, capturedAt: modified, device: "unknown",
                               width: size.width, height: size.height, codec: codec, orientation: 1,
                               byteCount: data.count, raw: raw)
        return try photo(id: id)
    }

    /// Adds a photo's row; returns its id.
    func insertRow(file: String, thumbnail: String?, capturedAt: Date, device: String, width: Int, height: Int,
                   codec: String, orientation: Int, byteCount: Int, state: String = "final",
                   movieDuration: Double? = nil, raw: String? = nil) throws(DatabaseError) -> Int64 {
        try database.query("""
            INSERT INTO photos (file, thumbnail, captured_at, device, width, height, codec, orientation, byte_count, state, kind, duration_ms, raw)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(file), thumbnail.map { .text($0) } ?? .null, .text(Self.timestamp(capturedAt)), .text(device),
                  .integer(Int64(width)), .integer(Int64(height)), .text(codec), .integer(Int64(orientation)),
                  .integer(Int64(byteCount)), .text(state), .text(movieDuration == nil ? "photo" : "movie"),
                  movieDuration.map { .integer(Int64(($0 * 1000).rounded())) } ?? .null, raw.map { .text($0) } ?? .null])
        return database.lastInsertedRowID
    }

    // MARK: - Names and formats

    static let schema = """
        CREATE TABLE IF NOT EXISTS photos (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            file TEXT NOT NULL UNIQUE,
            thumbnail TEXT,
            captured_at TEXT NOT NULL,
            device TEXT NOT NULL,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            codec TEXT NOT NULL,
            orientation INTEGER NOT NULL DEFAULT 1,
            byte_count INTEGER NOT NULL,
            state TEXT NOT NULL DEFAULT 'final',
            kind TEXT NOT NULL DEFAULT 'photo',
            duration_ms INTEGER,
            raw TEXT
        );
        CREATE INDEX IF NOT EXISTS photos_by_time ON photos (captured_at);
        CREATE TABLE IF NOT EXISTS albums (
            photo_id INTEGER NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            PRIMARY KEY (photo_id, name)
        );
        CREATE TABLE IF NOT EXISTS origins (
            photo_id INTEGER NOT NULL UNIQUE REFERENCES photos (id) ON DELETE CASCADE,
            origin TEXT NOT NULL UNIQUE
        );
        CREATE TABLE IF NOT EXISTS parts (
            picture_id INTEGER NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
            part_id INTEGER NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
            PRIMARY KEY (picture_id, part_id)
        );
        CREATE TABLE IF NOT EXISTS commands (
            id TEXT PRIMARY KEY,
            expires_at REAL NOT NULL
        );
        CREATE TABLE IF NOT EXISTS prints (
            photo_id INTEGER PRIMARY KEY REFERENCES photos (id) ON DELETE CASCADE,
            copies INTEGER NOT NULL
        );
        """

    /// ISO 8601 in UTC with milliseconds, which sorts as text in time order.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// A capture time as photo file names carry it: `20261130-050132.123` (local time).
    public static func fileStamp(_ date: Date) -> String {
        WallClockTime(date).formatted("yyyyMMdd-HHmmss.SSS")
    }

    /// Makes a folder and the folders above it that are missing; returns 0 or the `errno` of the failure.
    private static func makeFolder(_ path: String) -> Int32 {
        var status = stat()
        if stat(path, &status) == 0 { return status.st_mode & S_IFMT == S_IFDIR ? 0 : ENOTDIR }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if parent != path, errno == ENOENT {
            let failure = makeFolder(parent)
            guard failure == 0 else { return failure }
        }
        return mkdir(path, 0o755) == 0 || errno == EEXIST ? 0 : errno
    }
}
