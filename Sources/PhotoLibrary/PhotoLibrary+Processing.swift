import FileSystem
import FoundationEssentials
import Glibc

/// Photos kept at once as a proxy and finished later (a HEIC encoded slowly from the frame): the
/// proxy is the photo's file meanwhile, and what the final file is made from waits durably in
/// `spool/` beside it. A process ended at any moment loses nothing: the next one finishes the
/// spool, or keeps the proxy as the photo when its spooled frame cannot be read.
extension PhotoLibrary {
    var spoolFolder: String { folder + "/spool" }

    /// Whether the library in `folder` has photos spooled to be finished, without opening it: a
    /// look at its spool folder, which is cheap enough for every start.
    public static func hasSpooledPhotos(folder: String) -> Bool {
        ConfinedFile.names(in: "spool", of: folder).contains(where: isSpooled)
    }

    /// The photos whose final file is still to be made, oldest first.
    public func processingPhotos() throws(LibraryError) -> [LibraryPhoto] {
        try rows("SELECT * FROM photos WHERE state = 'processing' ORDER BY id")
    }

    /// What a processing photo's final file is to be made from (``NewPhoto/pending``), at most
    /// `limit` bytes.
    ///
    /// - Throws: ``LibraryError/Kind/notFound`` when there is none to read.
    public func pendingData(of photo: LibraryPhoto, limit: Int) throws(LibraryError) -> [UInt8] {
        do {
            return try ConfinedFile.contents(of: "spool/" + Self.spoolName(for: photo.fileName), in: folder, limit: limit)
        } catch {
            throw LibraryError(.notFound, "photo \(photo.id)'s spooled frame \(error.path) could not be read (\(error.reason))")
        }
    }

    /// Makes a processing photo final with `data` as its file (`codec`'s extension, the proxy's
    /// name otherwise): the file is durable before the row says so, then the proxy and the spooled
    /// frame are removed. Returns the photo as it now is.
    @discardableResult
    public func finish(id: Int64, data: [UInt8], codec: String) throws(LibraryError) -> LibraryPhoto {
        let photo = try photo(id: id)
        guard photo.isProcessing else { return photo }
        let name = Self.stem(of: photo.fileName) + "." + (codec == "hevc" ? "heic" : "jpg")
        let finished: Bool
        do {
            finished = try database.writeTransaction { () throws -> Bool in
                // Under the write lock: another process may have finished or deleted it meanwhile,
                // and a file written for a row no longer there would come back as a photo.
                let state = try database.query("SELECT state FROM photos WHERE id = ?", [.integer(id)]).first?.text("state")
                guard state == "processing" else { return false }
                // A final file written by a process ended before its row said so is this photo's own.
                try DurableFile.write(data, to: folder + "/" + name)
                try database.query("UPDATE photos SET file = ?, codec = ?, byte_count = ?, state = 'final' WHERE id = ?",
                                   [.text(name), .text(codec), .integer(Int64(data.count)), .integer(id)])
                return true
            }
        } catch {
            throw Self.libraryError(error, index: indexPath, doing: "photo \(id) could not be finished")
        }
        guard finished else { return try self.photo(id: id) }
        if name != photo.fileName { _ = try? ConfinedFile.remove(photo.fileName, in: folder) }
        _ = try? ConfinedFile.remove("spool/" + Self.spoolName(for: photo.fileName), in: folder)
        DurableFile.syncFolder(folder)
        return try self.photo(id: id)
    }

    /// Makes a processing photo final as it stands, its proxy kept as its file: for a photo whose
    /// spooled frame is lost or damaged.
    @discardableResult
    public func settle(id: Int64) throws(LibraryError) -> LibraryPhoto {
        let photo = try photo(id: id)
        do {
            try database.query("UPDATE photos SET state = 'final' WHERE id = ?", [.integer(id)])
        } catch {
            throw LibraryError(error, index: indexPath)
        }
        _ = try? ConfinedFile.remove("spool/" + Self.spoolName(for: photo.fileName), in: folder)
        return try self.photo(id: id)
    }

    /// Makes the spool folder when it is missing.
    func makeSpoolFolder() throws(DurableFile.WriteError) {
        guard mkdir(spoolFolder, 0o755) == 0 || errno == EEXIST else { throw DurableFile.WriteError(path: spoolFolder, code: errno) }
    }

    /// Adds the columns an index made by an earlier camctl lacks: `state` (photos processed
    /// later), `kind` and `duration_ms` (movies), `raw` (a camera's RAW file beside a photo).
    func addMissingColumns() throws(DatabaseError) {
        let columns = try database.query("PRAGMA table_info(photos)").compactMap { $0.text("name") }
        for (column, definition) in [("state", "TEXT NOT NULL DEFAULT 'final'"), ("kind", "TEXT NOT NULL DEFAULT 'photo'"),
                                     ("duration_ms", "INTEGER"), ("raw", "TEXT")] where !columns.contains(column) {
            try database.execute("ALTER TABLE photos ADD COLUMN \(column) \(definition)")
        }
    }
}
