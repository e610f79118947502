import Checksums
import Formatting
import FoundationEssentials
import Glibc

/// A secret kept in a file of its own in the library folder (the access token, the key of guest
/// links): 32 random bytes as hex, made on first use, in a file only its owner may read.
public enum SecretFile {
    /// The secret in `folder/name`: read, or made (`created`).
    ///
    /// - Throws: ``TokenFileError`` when the file cannot be made or read, or is not a plain file
    ///   of this user's that only they may read.
    public static func secret(named name: String, in folder: String) throws(TokenFileError) -> (hex: String, created: Bool) {
        let path = folder + "/" + name
        let made = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if made >= 0 {
            defer { close(made) }
            var generator = SystemRandomNumberGenerator()
            let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }.hexDigits
            let bytes = Array((secret + "\n").utf8)
            guard write(made, bytes, bytes.count) == bytes.count, fsync(made) == 0 else {
                unlink(path)
                throw TokenFileError("\(path) could not be written: \(String(cString: strerror(errno)))")
            }
            return (secret, true)
        }
        guard errno == EEXIST else { throw TokenFileError("\(path) could not be made: \(String(cString: strerror(errno)))") }
        let file = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { throw TokenFileError("\(path) could not be read: \(String(cString: strerror(errno)))") }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw TokenFileError("\(path) is not a plain file that only its owner may read; remove it, and a new one is made")
        }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = read(file, &buffer, buffer.count)
        let secret = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).trimmed()
        guard secret.count == 64, secret.allSatisfy(\.isHexDigit) else {
            throw TokenFileError("\(path) does not hold a secret; remove it, and a new one is made")
        }
        return (secret, false)
    }
}

/// Why a secret file could not be had.
public struct TokenFileError: Error, Sendable, CustomStringConvertible {
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
