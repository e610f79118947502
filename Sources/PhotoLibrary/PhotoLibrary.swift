import Foundation
import HEIF
import ImageMetadata

/// Photos on disk with an SQLite index: files named by capture time, thumbnails beside them in
/// `thumbnails/`, and `library.sqlite` (WAL mode) recording each photo's id, file, capture time,
/// camera, size, codec, orientation, thumbnail and albums.
///
/// A photo is written durably (temporary file, fsync, rename, folder fsync) before its row, and
/// both happen under the index's write lock, so several processes may add photos at once and a
/// crash leaves a whole photo or nothing. Opening the library reconciles files and rows.
public final class PhotoLibrary {
    /// The library folder.
    public let folder: String
    /// What opening the library found and repaired.
    public private(set) var reconciliation = Reconciliation()

    private let database: Database
    private var indexPath: String { folder + "/library.sqlite" }
    private var thumbnailFolder: String { folder + "/thumbnails" }

    /// What opening found out of step between files and rows, and repaired.
    public struct Reconciliation: Sendable, Equatable {
        /// Photo files without a row (a crash after the rename), now indexed.
        public var indexed: [LibraryPhoto] = []
        /// Rows whose file is gone (deleted by hand), now dropped.
        public var dropped: [LibraryPhoto] = []
        /// Temporary files left by a crash, and thumbnails of no photo, now removed.
        public var removedLeftovers = 0

        public var isEmpty: Bool { indexed.isEmpty && dropped.isEmpty && removedLeftovers == 0 }
    }

    /// Opens the library in `folder`, creating it if needed, and reconciles files and rows.
    public init(folder: String) throws(LibraryError) {
        self.folder = folder
        for path in [folder, folder + "/thumbnails"] {
            let failure = Self.makeFolder(path)
            guard failure == 0 else { throw LibraryError(DurableFile.WriteError(path: path, code: failure)) }
        }
        do {
            database = try Database(path: folder + "/library.sqlite")
            try database.execute(Self.schema)
        } catch {
            throw LibraryError(error, index: folder + "/library.sqlite")
        }
        try reconcile()
    }

    // MARK: - Adding

    /// Adds a photo: its file and thumbnail are durable on disk before its row is committed.
    ///
    /// - Throws: A ``LibraryError`` (disk full, read-only folder, …); nothing of the photo stays behind.
    @discardableResult
    public func add(_ photo: NewPhoto) throws(LibraryError) -> LibraryPhoto {
        do {
            return try database.writeTransaction { () throws -> LibraryPhoto in
                let name = try writeUniquely(photo)
                var written = [folder + "/" + name]
                do {
                    var thumbnailName: String?
                    if !photo.thumbnail.isEmpty {
                        let thumbnail = Self.thumbnailName(for: name)
                        try DurableFile.write(photo.thumbnail, to: thumbnailFolder + "/" + thumbnail, exclusive: true)
                        written.append(thumbnailFolder + "/" + thumbnail)
                        thumbnailName = thumbnail
                    }
                    let id = try insertRow(file: name, thumbnail: thumbnailName, capturedAt: photo.capturedAt, device: photo.device,
                                           width: photo.width, height: photo.height, codec: photo.codec,
                                           orientation: photo.orientation, byteCount: photo.data.count)
                    for album in photo.albums {
                        try database.query("INSERT OR IGNORE INTO albums (photo_id, name) VALUES (?, ?)", [.integer(id), .text(album)])
                    }
                    return try self.photo(id: id)
                } catch {
                    written.forEach { unlink($0) }
                    throw error
                }
            }
        } catch let error as LibraryError {
            throw error
        } catch let error as DurableFile.WriteError {
            throw LibraryError(error)
        } catch let error as DatabaseError {
            throw LibraryError(error, index: indexPath)
        } catch {
            throw LibraryError(.ioError, "the photo could not be added to the library: \(error)")
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

    /// The photo with an id.
    ///
    /// - Throws: ``LibraryError/Kind/notFound`` when there is none.
    public func photo(id: Int64) throws(LibraryError) -> LibraryPhoto {
        guard let photo = try rows("SELECT * FROM photos WHERE id = ?", [.integer(id)]).first else {
            throw LibraryError(.notFound, "the library has no photo \(id); camctl library list shows the ids")
        }
        return photo
    }

    private func rows(_ sql: String, _ parameters: [Database.Parameter] = []) throws(LibraryError) -> [LibraryPhoto] {
        do {
            return try database.query(sql, parameters).map { row throws(DatabaseError) in
                let id = row.integer("id") ?? 0
                let albums = try database.query("SELECT name FROM albums WHERE photo_id = ? ORDER BY name", [.integer(id)])
                    .compactMap { $0.text("name") }
                return LibraryPhoto(
                    id: id, path: folder + "/" + (row.text("file") ?? ""),
                    thumbnailPath: row.text("thumbnail").map { thumbnailFolder + "/" + $0 },
                    capturedAt: Self.date(row.text("captured_at") ?? "") ?? Date(timeIntervalSince1970: 0),
                    device: row.text("device") ?? "", width: Int(row.integer("width") ?? 0),
                    height: Int(row.integer("height") ?? 0), codec: row.text("codec") ?? "",
                    orientation: Int(row.integer("orientation") ?? 1), byteCount: Int(row.integer("byte_count") ?? 0),
                    albums: albums)
            }
        } catch {
            throw LibraryError(error, index: indexPath)
        }
    }

    // MARK: - Changing

    /// Removes a photo: its row, its file and its thumbnail.
    public func delete(id: Int64) throws(LibraryError) {
        let photo = try photo(id: id)
        do {
            try database.writeTransaction {
                try database.query("DELETE FROM photos WHERE id = ?", [.integer(id)])
                for path in [photo.path, photo.thumbnailPath].compactMap({ $0 }) where unlink(path) != 0 && errno != ENOENT {
                    throw DurableFile.WriteError(path: path, code: errno)
                }
            }
        } catch let error as DurableFile.WriteError {
            throw LibraryError(error)
        } catch let error as DatabaseError {
            throw LibraryError(error, index: indexPath)
        } catch {
            throw LibraryError(.ioError, "photo \(id) could not be deleted: \(error)")
        }
        DurableFile.syncFolder(folder)
    }

    /// Copies a photo's file to `destination` (a file path, or a folder to copy it into under its
    /// own name); returns the path written.
    public func export(id: Int64, to destination: String) throws(LibraryError) -> String {
        let photo = try photo(id: id)
        var target = destination
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: destination, isDirectory: &isFolder), isFolder.boolValue {
            target = destination + "/" + URL(fileURLWithPath: photo.path).lastPathComponent
        }
        guard let data = FileManager.default.contents(atPath: photo.path) else {
            throw LibraryError(.ioError, "\(photo.path) could not be read; the photo's file is missing or unreadable")
        }
        do {
            try DurableFile.write(data, to: target)
        } catch {
            throw LibraryError(error)
        }
        return target
    }

    // MARK: - Reconciling

    /// Brings files and rows into step, under the write lock so no writer is half-way through.
    private func reconcile() throws(LibraryError) {
        var found = Reconciliation()
        do {
            try database.writeTransaction {
                let known = try database.query("SELECT id, file, thumbnail FROM photos")
                let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
                let thumbnails = Set(try FileManager.default.contentsOfDirectory(atPath: thumbnailFolder))
                var indexedFiles = Set<String>(), keptThumbnails = Set<String>()
                for row in known {
                    guard let file = row.text("file"), let id = row.integer("id") else { continue }
                    if files.contains(file) {
                        indexedFiles.insert(file)
                        if let thumbnail = row.text("thumbnail") { keptThumbnails.insert(thumbnail) }
                    } else {
                        found.dropped.append(try photo(id: id))
                        try database.query("DELETE FROM photos WHERE id = ?", [.integer(id)])
                    }
                }
                for name in files.sorted() where Self.isPhotoFile(name) && !indexedFiles.contains(name) {
                    guard let photo = try indexFound(name) else { continue }
                    found.indexed.append(photo)
                    if let thumbnail = photo.thumbnailPath { keptThumbnails.insert(URL(fileURLWithPath: thumbnail).lastPathComponent) }
                }
                for name in files where DurableFile.isTemporary(name) {
                    if unlink(folder + "/" + name) == 0 { found.removedLeftovers += 1 }
                }
                for name in thumbnails where !keptThumbnails.contains(name) {
                    if unlink(thumbnailFolder + "/" + name) == 0 { found.removedLeftovers += 1 }
                }
            }
        } catch let error as LibraryError {
            throw error
        } catch let error as DatabaseError {
            throw LibraryError(error, index: indexPath)
        } catch {
            throw LibraryError(.ioError, "the library \(folder) could not be read: \(error.localizedDescription)")
        }
        reconciliation = found
    }

    /// Indexes a photo file that has no row, with what the file itself says.
    private func indexFound(_ name: String) throws -> LibraryPhoto? {
        let path = folder + "/" + name
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let codec = name.hasSuffix(".heic") ? "hevc" : "jpeg"
        let size = codec == "hevc"
            ? (try? HEIFContents(parsing: Array(data)))?.displaySize
            : JPEGFile.dimensions(of: data)
        let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
        let thumbnail = Self.thumbnailName(for: name)
        let hasThumbnail = FileManager.default.fileExists(atPath: thumbnailFolder + "/" + thumbnail)
        let id = try insertRow(file: name, thumbnail: hasThumbnail ? thumbnail : nil, capturedAt: modified, device: "unknown",
                               width: size?.width ?? 0, height: size?.height ?? 0, codec: codec, orientation: 1,
                               byteCount: data.count)
        return try photo(id: id)
    }

    /// Adds a photo's row; returns its id.
    private func insertRow(file: String, thumbnail: String?, capturedAt: Date, device: String, width: Int, height: Int,
                           codec: String, orientation: Int, byteCount: Int) throws(DatabaseError) -> Int64 {
        try database.query("""
            INSERT INTO photos (file, thumbnail, captured_at, device, width, height, codec, orientation, byte_count)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [.text(file), thumbnail.map { .text($0) } ?? .null, .text(Self.timestamp(capturedAt)), .text(device),
                  .integer(Int64(width)), .integer(Int64(height)), .text(codec), .integer(Int64(orientation)),
                  .integer(Int64(byteCount))])
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
            byte_count INTEGER NOT NULL
        );
        CREATE INDEX IF NOT EXISTS photos_by_time ON photos (captured_at);
        CREATE TABLE IF NOT EXISTS albums (
            photo_id INTEGER NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
            name TEXT NOT NULL,
            PRIMARY KEY (photo_id, name)
        );
        """

    /// `20261130-050132.123-k3f9x2.jpg`: the capture time, to the millisecond, and a random suffix.
    static func fileName(capturedAt date: Date, extension fileExtension: String) -> String {
        let stamp = fileStamp(date)
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        let suffix = String((0..<6).map { _ in alphabet.randomElement()! })
        return "\(stamp)-\(suffix).\(fileExtension)"
    }

    static func thumbnailName(for photoName: String) -> String {
        URL(fileURLWithPath: photoName).deletingPathExtension().lastPathComponent + ".jpg"
    }

    static func isPhotoFile(_ name: String) -> Bool {
        !name.hasPrefix(".") && ["jpg", "jpeg", "heic"].contains(URL(fileURLWithPath: name).pathExtension.lowercased())
    }

    /// ISO 8601 in UTC with milliseconds, which sorts as text in time order.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }

    /// A capture time as photo file names carry it: `20261130-050132.123` (local time).
    public static func fileStamp(_ date: Date) -> String {
        fileStampFormatter.string(from: date)
    }

    private static let fileStampFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss.SSS"
        return formatter
    }()

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
