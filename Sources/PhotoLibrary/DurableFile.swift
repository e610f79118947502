import Foundation

/// Writes files so that a reader sees either the whole new file or nothing, and so that a file
/// reported written survives a crash: a temporary file in the same folder, flushed to disk,
/// renamed into place, and the folder flushed.
public enum DurableFile {
    /// Why a file could not be written, with the system's error number.
    public struct WriteError: Error, Sendable, Equatable {
        /// The file that was being written.
        public let path: String
        /// The `errno` value.
        public let code: Int32

        /// The system's words for the error (`No space left on device`).
        public var reason: String { String(cString: strerror(code)) }
    }

    /// Writes `bytes` to `path`, replacing what is there; with `exclusive`, fails with `EEXIST`
    /// instead of replacing.
    public static func write(_ bytes: some ContiguousBytes, to path: String, exclusive: Bool = false) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/" + temporaryName(for: url.lastPathComponent)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, code: errno) }
        var failure = bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        if failure == 0 {
            // link() refuses to replace, so an exclusive write never clobbers another writer's file.
            if exclusive {
                if link(temporary, path) != 0 { failure = errno }
                unlink(temporary)
            } else if rename(temporary, path) != 0 {
                failure = errno
            }
        }
        guard failure == 0 else {
            unlink(temporary)
            throw WriteError(path: path, code: failure)
        }
        syncFolder(folder)
    }

    /// Fails early, before a camera starts, when the folder `path` would go in is missing or not writable.
    public static func checkWritable(_ path: String) throws(WriteError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var status = stat()
        guard stat(folder, &status) == 0 else { throw WriteError(path: path, code: errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw WriteError(path: path, code: ENOTDIR) }
        guard access(folder, W_OK) == 0 else { throw WriteError(path: path, code: errno) }
    }

    /// Whether a file name is one of our temporary files (left behind only by a crash).
    public static func isTemporary(_ name: String) -> Bool {
        name.hasPrefix(".") && name.hasSuffix(".tmp")
    }

    /// Flushes a folder's entries (a rename or unlink in it) to disk.
    static func syncFolder(_ folder: String) {
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }

    private static func temporaryName(for name: String) -> String {
        ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Writes the whole buffer to a file descriptor, going on after interruptions; returns 0 or
    /// the `errno` of the failure.
    public static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var written = 0
        while written < buffer.count {
            let result = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += result
        }
        return 0
    }
}
