import FileSystem
import FoundationEssentials
import Glibc
import HEIF

/// Movies: recorded into `recordings/` under the name they will keep, locked by the recording
/// process, and moved beside the photos with their row once finished. A recording whose process
/// ended without finishing it (killed, the machine off) is no longer locked: the next opening
/// keeps what of it is whole (its fragments up to the last one written entirely) as a movie.
extension PhotoLibrary {
    var recordingFolder: String { folder + "/recordings" }

    /// The space held beside each recording, freed when it ends, so a recording that filled the
    /// disk still has room for its thumbnail and its index row.
    static let reservedBytes = 1 << 20

    static func reservePath(of recording: String) -> String {
        stem(of: recording) + ".reserve"
    }

    /// A movie being recorded into the library: a file in `recordings/` that this process holds
    /// locked until ``PhotoLibrary/addMovie(_:thumbnail:capturedAt:device:albums:)`` moves it
    /// beside the photos (or it is let go, to be kept by the next opening of the library).
    public final class Recording: @unchecked Sendable {
        // @unchecked Sendable: immutable after init; the descriptor is only closed, once, in deinit.
        /// Where the recording is written.
        public let path: String
        /// The name the movie keeps in the library.
        let name: String
        /// An open descriptor holding the file's lock.
        private let lock: Int32

        init(path: String, name: String, lock: Int32) {
            (self.path, self.name, self.lock) = (path, name, lock)
        }

        /// Removes the recording and the space held beside it: a recording that could not start.
        public func abandon() {
            unlink(path)
            unlink(PhotoLibrary.reservePath(of: path))
        }

        deinit {
            close(lock)
        }
    }

    /// Makes the file a movie taken at `capturedAt` is recorded into, locked by this process.
    public func beginRecording(capturedAt: Date) throws(LibraryError) -> Recording {
        guard !isReadOnly else { throw LibraryError(.permissionDenied, "the library \(folder) may not be written; choose a library folder you can write to") }
        guard mkdir(recordingFolder, 0o755) == 0 || errno == EEXIST else {
            throw LibraryError(DurableFile.WriteError(path: recordingFolder, code: errno))
        }
        while true {
            let name = Self.fileName(capturedAt: capturedAt, extension: "mp4")
            let path = recordingFolder + "/" + name
            guard access(folder + "/" + name, F_OK) != 0 else { continue }
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor < 0, errno == EEXIST { continue }
            guard descriptor >= 0 else { throw LibraryError(DurableFile.WriteError(path: path, code: errno)) }
            let reserve = Self.reservePath(of: path)
            let reserved = open(reserve, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            let failure = flock(descriptor, LOCK_EX | LOCK_NB) != 0 ? errno
                : reserved < 0 ? errno : posix_fallocate(reserved, 0, off_t(Self.reservedBytes))
            if reserved >= 0 { close(reserved) }
            guard failure == 0 else {
                close(descriptor)
                unlink(path)
                unlink(reserve)
                throw LibraryError(DurableFile.WriteError(path: path, code: failure))
            }
            return Recording(path: path, name: name, lock: descriptor)
        }
    }

    /// Adds a finished recording as a movie: the file is cut to its whole part, made durable and
    /// moved beside the photos, its thumbnail written, then its row committed. A recording with no
    /// whole frame is removed and ``LibraryError/Kind/notFound`` thrown.
    @discardableResult
    public func addMovie(_ recording: Recording, thumbnail: [UInt8], capturedAt: Date, device: String,
                         albums: [String] = []) throws(LibraryError) -> LibraryPhoto {
        unlink(Self.reservePath(of: recording.path))
        var written: [String] = []
        do {
            return try database.writeTransaction { () throws -> LibraryPhoto in
                let descriptor = try openRecording(recording.name)
                defer { close(descriptor) }
                let movie = try Self.keepWhole(descriptor, path: recording.path)
                guard movie.frameCount > 0 else {
                    unlink(recording.path)
                    throw LibraryError(.notFound, "the recording has no whole frame, so no movie was kept")
                }
                let target = folder + "/" + recording.name
                guard rename(recording.path, target) == 0 else { throw DurableFile.WriteError(path: target, code: errno) }
                written.append(target)
                DurableFile.syncFolder(folder)
                DurableFile.syncFolder(recordingFolder)
                // A thumbnail that finds the disk full is left out: the movie matters more.
                var thumbnailName: String?
                let thumbnailPath = thumbnailFolder + "/" + Self.thumbnailName(for: recording.name)
                if !thumbnail.isEmpty, (try? DurableFile.write(thumbnail, to: thumbnailPath, exclusive: true)) != nil {
                    written.append(thumbnailPath)
                    thumbnailName = Self.thumbnailName(for: recording.name)
                }
                let id = try insertRow(file: recording.name, thumbnail: thumbnailName, capturedAt: capturedAt, device: device,
                                       width: movie.width, height: movie.height, codec: "h264", orientation: 1,
                                       byteCount: movie.wholeLength, movieDuration: movie.duration)
                for album in albums {
                    try database.query("INSERT OR IGNORE INTO albums (photo_id, name) VALUES (?, ?)", [.integer(id), .text(album)])
                }
                return try self.photo(id: id)
            }
        } catch {
            // The movie goes back to its recording's place, where the next opening keeps it.
            if let moved = written.first { rename(moved, recording.path) }
            written.dropFirst().forEach { unlink($0) }
            throw Self.libraryError(error, index: indexPath, doing: "the movie could not be added to the library")
        }
    }

    /// Cuts the movie file open at `descriptor` (read and write) to its whole part and makes it
    /// durable; returns what it holds.
    static func keepWhole(_ descriptor: Int32, path: String) throws -> MovieFile {
        let movie = try MovieFile(descriptor: descriptor, path: path)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw DurableFile.WriteError(path: path, code: errno) }
        if Int(status.st_size) > movie.wholeLength, ftruncate(descriptor, off_t(movie.wholeLength)) != 0 {
            throw DurableFile.WriteError(path: path, code: errno)
        }
        guard fsync(descriptor) == 0 else { throw DurableFile.WriteError(path: path, code: errno) }
        return movie
    }

    /// Opens a recording in `recordings/` to be read and cut, never through a link.
    func openRecording(_ name: String) throws -> Int32 {
        do {
            return try ConfinedFile.open("recordings/" + name, in: folder, writing: true)
        } catch {
            throw DurableFile.WriteError(path: error.path, code: ENOENT)
        }
    }

    /// Keeps the recordings no process holds any more (their process ended without finishing
    /// them) as movies, cut to their whole part; a recording without a whole frame is removed.
    /// Run inside reconciling's transaction.
    func recoverRecordings(into found: inout Reconciliation) throws {
        let names = ConfinedFile.names(in: "recordings", of: folder)
        for name in names.sorted() where Self.isPhotoFile(Self.stem(of: name) + ".mp4") && name.hasSuffix(".reserve")
            && !names.contains(Self.stem(of: name) + ".mp4") {
            if try ConfinedFile.remove("recordings/" + name, in: folder) { found.removedLeftovers += 1 }  // its recording was kept
        }
        for name in names.sorted() where Self.isPhotoFile(name) && name.hasSuffix(".mp4") {
            let path = recordingFolder + "/" + name
            guard let descriptor = try? openRecording(name) else { continue }
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { continue }  // still being recorded
            try ConfinedFile.remove("recordings/" + Self.reservePath(of: name), in: folder)
            guard let movie = try? Self.keepWhole(descriptor, path: path), movie.frameCount > 0,
                  ConfinedFile.status(of: name, in: folder) == nil else {
                if try ConfinedFile.remove("recordings/" + name, in: folder) { found.removedLeftovers += 1 }
                continue
            }
            guard rename(path, folder + "/" + name) == 0 else { continue }
            DurableFile.syncFolder(folder)
            // Begun its length before it was last written.
            var status = stat()
            let lastWritten = fstat(descriptor, &status) == 0
                ? Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9) : Date()
            let recorded = lastWritten.addingTimeInterval(-movie.duration)
            let id = try insertRow(file: name, thumbnail: nil, capturedAt: recorded, device: "unknown", width: movie.width,
                                   height: movie.height, codec: "h264", orientation: 1, byteCount: movie.wholeLength,
                                   movieDuration: movie.duration)
            found.recoveredMovies.append(try photo(id: id))
        }
    }
}
