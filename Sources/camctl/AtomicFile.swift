import Foundation

/// Writes files so that a reader sees either the whole new file or nothing:
/// a temporary file in the same folder, flushed to disk, then renamed into place.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(errno, creating: path) }
        var written = 0
        var writeError: Int32 = 0
        bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let result = Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    writeError = errno
                    return
                }
                written += result
            }
        }
        if writeError == 0, fsync(descriptor) != 0 { writeError = errno }
        close(descriptor)
        if writeError == 0, rename(temporary, path) != 0 { writeError = errno }
        guard writeError == 0 else {
            unlink(temporary)
            throw failure(writeError, creating: path)
        }
        let folderDescriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Fails early, before the camera starts, when the file's folder is missing or not writable.
    static func checkWritable(_ path: String) throws(CommandFailure) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var status = stat()
        guard stat(folder, &status) == 0 else { throw failure(errno, creating: path) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw failure(ENOTDIR, creating: path) }
        guard access(folder, W_OK) == 0 else { throw failure(errno, creating: path) }
    }

    private static func failure(_ code: Int32, creating path: String) -> CommandFailure {
        let reason = String(cString: strerror(code))
        switch code {
        case ENOSPC, EDQUOT:
            return CommandFailure("\(path) could not be written: \(reason); free some space and try again", exitCode: .ioError)
        case EACCES, EPERM, EROFS:
            return CommandFailure("\(path) could not be written: \(reason); choose a folder you can write to", exitCode: .noPermission)
        case ENOENT, ENOTDIR:
            return CommandFailure("\(path) could not be created: its folder does not exist", exitCode: .cannotCreate)
        case EIO:
            return CommandFailure("\(path) could not be written: \(reason)", exitCode: .ioError)
        default:
            return CommandFailure("\(path) could not be created: \(reason)", exitCode: .cannotCreate)
        }
    }
}
