import Blocking
import Glibc

/// The SHA-256 of files read through open descriptors, remembered by a key of the caller's (a
/// photo's id) with what tells the file's contents apart: its device, inode, size and change
/// time. A file asked for again is hashed again only when it is another file or was written
/// since; unchanged, its checksum is given at the cost of an `fstat`. A file changed within the
/// last ``settled`` seconds is not remembered: a write in the same tick of a coarse clock would
/// leave its change time as it was. Not shared: one owner (a serial queue's) uses it.
public struct FileChecksums {
    /// What a file's contents are told by: replaced (a new inode), or written (its size or change time).
    private struct Identity: Equatable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let changed: Int64
        let changedNanoseconds: Int

        init(_ status: stat) {
            (device, inode, size) = (UInt64(status.st_dev), UInt64(status.st_ino), Int64(status.st_size))
            (changed, changedNanoseconds) = (Int64(status.st_ctim.tv_sec), Int(status.st_ctim.tv_nsec))
        }
    }

    private var known: [Int64: (identity: Identity, sha256: String)] = [:]
    /// The most files remembered; past it, the memory starts again empty.
    public static let limit = 100_000
    /// How many files have been read and hashed.
    public private(set) var filesHashed = 0
    /// How long since its last change a file's checksum waits to be remembered, in seconds.
    public static let settled: Int64 = 2
    /// The time now, in seconds since 1970.
    private let now: () -> Int64

    /// Checksums remembered by the time `now` says (the system's clock unless a test gives its own).
    public init(now: @escaping () -> Int64 = { Int64(time(nil)) }) {
        self.now = now
    }

    /// The SHA-256 in hex of what is left to read of `descriptor`, the file known as `key`;
    /// `nil` when it cannot be read.
    public mutating func sha256(of descriptor: Int32, key: Int64) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        let identity = Identity(status)
        if let seen = known[key], seen.identity == identity { return seen.sha256 }
        guard let sha256 = Self.hash(descriptor) else { return nil }
        filesHashed += 1
        guard now() - identity.changed >= Self.settled else { return sha256 }
        if known.count >= Self.limit { known.removeAll(keepingCapacity: true) }
        known[key] = (identity, sha256)
        return sha256
    }

    /// The SHA-256 of what is left to read of `descriptor`, in hex, read a piece at a time.
    private static func hash(_ descriptor: Int32) -> String? {
        SharedThreads.forbid("hashing a file")
        var hash = SHA256()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            guard count > 0 else { return hash.finish().hexDigits }
            hash.update(chunk[..<count])
        }
    }
}
