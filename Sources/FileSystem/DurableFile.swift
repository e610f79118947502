import Blocking
import FoundationEssentials
import Glibc

/// Writes files so that a reader sees either the whole new file or nothing, and so that a file
/// reported written survives a crash: a temporary file in the same folder, flushed to disk,
/// renamed into place, and the folder flushed.
public enum DurableFile {
    /// Why a file could not be written: the system's error number, or what is at the path that
    /// camctl refuses to replace.
    public struct WriteError: Error, Sendable, Equatable {
        /// The file that was being written.
        public let path: String
        /// The `errno` value.
        public let code: Int32
        /// What stands at the path instead of a file that may be written, when that is the reason.
        public let refusal: Refusal?

        /// What is at a destination that a write will not replace.
        public enum Refusal: Sendable, Equatable {
            case folder
            case blockDevice
            case socket
            /// A symbolic link whose target does not exist.
            case danglingLink(target: String)
            /// Something that is not a symbolic link where a link is to be replaced.
            case notALink
            /// A FIFO that no program is reading.
            case fifoWithoutReader
            /// A file of the photo library, which only the library writes.
            case libraryFile(folder: String)
        }

        public init(path: String, code: Int32) {
            (self.path, self.code, refusal) = (path, code, nil)
        }

        public init(path: String, refusal: Refusal) {
            (self.path, self.refusal) = (path, refusal)
            code = switch refusal {
            case .folder: EISDIR
            case .danglingLink: ENOENT
            case .fifoWithoutReader: ENXIO
            default: EEXIST
            }
        }

        /// What went wrong, in words (`No space left on device`, `it is a folder`).
        public var reason: String {
            switch refusal {
            case .folder?: "it is a folder"
            case .blockDevice?: "it is a block device, which camctl never writes"
            case .socket?: "it is a socket"
            case .danglingLink(let target)?: "it is a symbolic link to \(target), which does not exist"
            case .notALink?: "something other than a symbolic link is there, and camctl only replaces its own link"
            case .fifoWithoutReader?: "it is a FIFO that no program is reading"
            case .libraryFile(let folder)?: "it is inside the photo library \(folder), whose files only the library writes"
            case nil: String(cString: strerror(code))
            }
        }
    }

    /// Writes `bytes` to `path`, replacing what is there; with `exclusive`, fails with `EEXIST`
    /// instead of replacing. Without `syncing`, the file appears whole or not at all to any process
    /// however one ends, but only the system's own writing puts it on disk: for a file whose loss
    /// in a power cut costs nothing that cannot be had otherwise.
    public static func write(_ bytes: some ContiguousBytes, to path: String, exclusive: Bool = false,
                             syncing: Bool = true) throws(WriteError) {
        try write(to: path, exclusive: exclusive, syncing: syncing) { descriptor in bytes.withUnsafeBytes { writeAll($0, to: descriptor) } }
    }

    /// Writes `contents` to `path` as ``write(_:to:exclusive:syncing:)`` writes bytes, each piece
    /// as the contents hand it over.
    public static func write(contents: some FileContents, to path: String, exclusive: Bool = false,
                             syncing: Bool = true) throws(WriteError) {
        try write(to: path, exclusive: exclusive, syncing: syncing) { contents.write(to: $0) }
    }

    /// Copies the file at `source` to `path` as ``write(_:to:exclusive:syncing:)`` writes bytes, a
    /// megabyte at a time, so a file of any size copies in little memory.
    public static func copy(_ source: String, to path: String) throws(WriteError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw WriteError(path: source, code: errno) }
        defer { close(input) }
        try write(to: path, exclusive: false, syncing: true) { descriptor in copyAll(from: input, to: descriptor) }
    }

    /// Everything `input` holds, written to `output`; returns 0 or the `errno` of the failure.
    public static func copyAll(from input: Int32, to output: Int32) -> Int32 {
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return errno }
            guard count > 0 else { return 0 }
            let failure = chunk.withUnsafeBytes { writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: output) }
            guard failure == 0 else { return failure }
        }
    }

    /// Writes a file through a temporary beside it, which `fill` writes into; returns 0 or the
    /// `errno` of the failure.
    private static func write(to path: String, exclusive: Bool, syncing: Bool, fill: (Int32) -> Int32) throws(WriteError) {
        SharedThreads.forbid("writing \(path) durably")
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/" + temporaryName(for: url.lastPathComponent)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path, code: errno) }
        var failure = fill(descriptor)
        if failure == 0, !exclusive { keepOwnership(of: path, on: descriptor) }
        if failure == 0, syncing, fsync(descriptor) != 0 { failure = errno }
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
        if syncing { syncFolder(folder) }
    }

    /// Gives the file being written the permissions, owner and group of the regular file it is to
    /// replace, as `cp` keeps them by writing into it: a private file stays private. Where this
    /// user may not give the file its owner (only root may), the group is kept if it can be, else
    /// the group's permissions are dropped, so no one gains access.
    private static func keepOwnership(of path: String, on descriptor: Int32) {
        var replaced = stat()
        guard lstat(path, &replaced) == 0, replaced.st_mode & S_IFMT == S_IFREG else { return }
        var permissions = replaced.st_mode & 0o777
        if fchown(descriptor, replaced.st_uid, replaced.st_gid) != 0, fchown(descriptor, uid_t.max, replaced.st_gid) != 0 {
            permissions &= ~0o070
        }
        fchmod(descriptor, permissions)
    }

    /// Fails early, before a camera starts, when the folder `path` would go in is missing or not writable.
    public static func checkWritable(_ path: String) throws(WriteError) {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var status = stat()
        guard stat(folder, &status) == 0 else { throw WriteError(path: path, code: errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw WriteError(path: path, code: ENOTDIR) }
        guard access(folder, W_OK) == 0 else { throw WriteError(path: path, code: errno) }
    }

    /// The name of the file a temporary file of ours (`.NAME.PID.RANDOM.tmp`, left behind only by
    /// a crash) was writing; `nil` for any other name.
    public static func writtenName(ofTemporary name: String) -> String? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let parts = name.dropFirst().dropLast(".tmp".count).split(separator: ".", omittingEmptySubsequences: false)
        let isNumber = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }
        guard parts.count >= 3, isNumber(parts[parts.count - 1]), isNumber(parts[parts.count - 2]) else { return nil }
        let written = parts.dropLast(2).joined(separator: ".")
        return written.isEmpty ? nil : written
    }

    /// Removes what writes of `path` left beside it when their process was killed mid-write
    /// (`.NAME.PID.RANDOM.tmp`, NAME `path`'s own name, PID a process that no longer runs); a
    /// write under way in a running process is let be. Links and other names are never touched.
    public static func removeLeftovers(of path: String) {
        let url = URL(fileURLWithPath: path)
        let (folder, name) = (url.deletingLastPathComponent().path, url.lastPathComponent)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for candidate in names where writtenName(ofTemporary: candidate) == name {
            let fields = candidate.dropLast(".tmp".count).split(separator: ".")
            guard fields.count >= 2, let pid = pid_t(fields[fields.count - 2]), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            var status = stat()
            guard lstat(folder + "/" + candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            unlink(folder + "/" + candidate)
        }
    }

    /// Flushes a folder's entries (a rename or unlink in it) to disk.
    public static func syncFolder(_ folder: String) {
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
