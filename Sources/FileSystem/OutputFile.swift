import FoundationEssentials
import Glibc

/// A path that camctl writes a result to (a photo's copy, a sidecar, an export), and what a write
/// there does, as `cp` and `curl -o` do it:
///
/// - nothing there: the file is created, durably;
/// - a regular file: it is replaced, durably (a reader sees the old or the new file, never a mix);
/// - a symbolic link: it is followed, and its target is created or replaced; a link to nothing is refused;
/// - a FIFO or a character device (`/dev/null`, `/dev/stdout`): the bytes are written into it,
///   which is never replaced; a FIFO no program reads is refused instead of waited on;
/// - a folder, a block device or a socket: refused, untouched.
public enum OutputFile {
    /// What a write to a path will do.
    public enum Plan: Sendable, Equatable {
        /// Create or replace the regular file at this path (the link's target for a link).
        case file(String)
        /// Write into the FIFO or character device at this path.
        case stream(String)
    }

    /// What a write to `path` would do, or why it is refused.
    public static func plan(for path: String) throws(DurableFile.WriteError) -> Plan {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let failure = errno
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                throw DurableFile.WriteError(path: path, refusal: .danglingLink(target: target))
            }
            guard failure == ENOENT else { throw DurableFile.WriteError(path: path, code: failure) }
            return .file(path)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            guard isSymbolicLink(path) else { return .file(path) }
            guard let resolved = realpath(path, nil) else { throw DurableFile.WriteError(path: path, code: errno) }
            defer { free(resolved) }
            return .file(String(cString: resolved))
        case S_IFIFO, S_IFCHR: return .stream(path)
        case S_IFDIR: throw DurableFile.WriteError(path: path, refusal: .folder)
        case S_IFBLK: throw DurableFile.WriteError(path: path, refusal: .blockDevice)
        default: throw DurableFile.WriteError(path: path, refusal: .socket)
        }
    }

    /// Fails early, before a camera starts, when `path` could not be written as ``plan(for:)`` says.
    public static func check(_ path: String) throws(DurableFile.WriteError) {
        switch try plan(for: path) {
        case .file(let file): try DurableFile.checkWritable(file)
        case .stream(let stream):
            guard access(stream, W_OK) == 0 else { throw DurableFile.WriteError(path: path, code: errno) }
        }
    }

    /// Writes `bytes` to `path` as ``plan(for:)`` says; returns the plan carried out.
    @discardableResult
    public static func write(_ bytes: some ContiguousBytes, to path: String) throws(DurableFile.WriteError) -> Plan {
        try write(to: path, file: { file throws(DurableFile.WriteError) in try DurableFile.write(bytes, to: file) },
                  stream: { descriptor in bytes.withUnsafeBytes { DurableFile.writeAll($0, to: descriptor) } })
    }

    /// Copies the file at `source` to `path` as ``plan(for:)`` says, a megabyte at a time; returns
    /// the plan carried out.
    @discardableResult
    public static func copy(_ source: String, to path: String) throws(DurableFile.WriteError) -> Plan {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw DurableFile.WriteError(path: source, code: errno) }
        defer { close(input) }
        return try write(to: path, file: { file throws(DurableFile.WriteError) in try DurableFile.copy(source, to: file) },
                         stream: { descriptor in DurableFile.copyAll(from: input, to: descriptor) })
    }

    /// Carries out ``plan(for:)``: a file through `file`, a FIFO or device through `stream`, which
    /// writes into its descriptor and returns 0 or the `errno` of the failure.
    private static func write(to path: String, file: (String) throws(DurableFile.WriteError) -> Void,
                              stream streamWrite: (Int32) -> Int32) throws(DurableFile.WriteError) -> Plan {
        let plan = try plan(for: path)
        switch plan {
        case .file(let target):
            try file(target)
        case .stream(let stream):
            // Non-blocking, so a FIFO without a reader fails at once (ENXIO) instead of hanging.
            let descriptor = open(stream, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else {
                throw errno == ENXIO ? DurableFile.WriteError(path: path, refusal: .fifoWithoutReader)
                    : DurableFile.WriteError(path: path, code: errno)
            }
            defer { close(descriptor) }
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK)
            let failure = streamWrite(descriptor)
            guard failure == 0 else { throw DurableFile.WriteError(path: path, code: failure) }
        }
        return plan
    }

    /// Whether `path` is `folder` or lies below it, once symbolic links in both are resolved
    /// (`path` need not exist; its folder is resolved then).
    public static func isInside(_ path: String, folder: String) -> Bool {
        guard let base = resolved(folder) else { return false }
        let candidate = resolved(path) ?? resolved(URL(fileURLWithPath: path).deletingLastPathComponent().path)
            .map { $0 + "/" + URL(fileURLWithPath: path).lastPathComponent }
        guard let candidate else { return false }
        return candidate == base || candidate.hasPrefix(base.hasSuffix("/") ? base : base + "/")
    }

    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path.isEmpty ? "." : path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func isSymbolicLink(_ path: String) -> Bool {
        var link = stat()
        return lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
    }
}
