import FoundationEssentials
import Glibc

/// Reads files that camctl is given as input (a photo, a drawing, a description file) without
/// ever blocking on one that is not a file: a FIFO, a device node or a socket is refused before
/// anything waits on it, and a read stops at a size limit.
public enum RegularFile {
    /// Why an input file could not be read.
    public struct ReadError: Error, Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// Nothing is at the path.
            case missing
            /// The file may not be read.
            case permissionDenied
            /// A folder, FIFO, socket or device is there; the word says which.
            case notRegular(String)
            /// The file is larger than the limit asked for.
            case tooLarge(limit: Int)
            /// Reading failed (`errno`).
            case system(Int32)
        }

        public let path: String
        public let kind: Kind

        init(path: String, kind: Kind) {
            (self.path, self.kind) = (path, kind)
        }

        /// The error an `open` of `path` failed with: a link met where links are not followed
        /// (`ELOOP`) is told as what it is.
        init(path: String, code: Int32) {
            self.init(path: path, kind: code == ELOOP ? .notRegular("a symbolic link") : RegularFile.kind(of: code))
        }

        /// What is wrong, in words, without the path.
        public var reason: String {
            switch kind {
            case .missing: "it does not exist"
            case .permissionDenied: "it may not be read; check its permissions"
            case .notRegular(let what): "it is \(what), not a regular file"
            case .tooLarge(let limit): "it is larger than \(limit / 1_048_576) MiB"
            case .system(let code): String(cString: strerror(code))
            }
        }
    }

    /// Checks that `path` is a regular file that may be read, without opening it (so a FIFO is
    /// never waited on); for files that another program (GStreamer) opens.
    public static func check(_ path: String) throws(ReadError) {
        guard !path.isEmpty else { throw ReadError(path: path, kind: .missing) }
        var status = stat()
        guard stat(path, &status) == 0 else { throw ReadError(path: path, kind: kind(of: errno)) }
        try requireRegular(status, path: path)
        guard access(path, R_OK) == 0 else { throw ReadError(path: path, kind: kind(of: errno)) }
    }

    /// The whole of a regular file, refused when it is larger than `limit` bytes.
    public static func contents(of path: String, limit: Int = 256 * 1_048_576) throws(ReadError) -> [UInt8] {
        guard !path.isEmpty else { throw ReadError(path: path, kind: .missing) }
        // O_NONBLOCK: opening a FIFO without a writer would otherwise wait for ever.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw ReadError(path: path, kind: kind(of: errno)) }
        defer { close(descriptor) }
        return try contents(of: descriptor, path: path, limit: limit)
    }

    /// The whole of the file open at `descriptor` (named `path` in errors), refused when it is not
    /// a regular file or is larger than `limit` bytes.
    public static func contents(of descriptor: Int32, path: String, limit: Int) throws(ReadError) -> [UInt8] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw ReadError(path: path, kind: .system(errno)) }
        try requireRegular(status, path: path)
        guard Int(status.st_size) <= limit else { throw ReadError(path: path, kind: .tooLarge(limit: limit)) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let result = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if result < 0, errno == EINTR { continue }
            guard result >= 0 else { throw ReadError(path: path, kind: .system(errno)) }
            if result == 0 { break }  // the file shrank while being read
            filled += result
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    static func requireRegular(_ status: stat, path: String) throws(ReadError) {
        let what: String? = switch status.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        default: "a device node"
        }
        if let what { throw ReadError(path: path, kind: .notRegular(what)) }
    }

    static func kind(of code: Int32) -> ReadError.Kind {
        switch code {
        case ENOENT, ENOTDIR: .missing
        case EACCES, EPERM: .permissionDenied
        default: .system(code)
        }
    }
}
