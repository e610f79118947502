/// HMAC with SHA-256 (RFC 2104): a tag that only a holder of the key can make, such as a photo's
/// download link that cannot be guessed.
public enum HMAC {
    /// The tag of `message` under `key`.
    public static func sha256(key: [UInt8], message: some Sequence<UInt8>) -> [UInt8] {
        var key = key.count > SHA256.blockSize ? SHA256.hash(key) : key
        key += [UInt8](repeating: 0, count: SHA256.blockSize - key.count)
        var inner = SHA256()
        inner.update(key.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(key.map { $0 ^ 0x5c })
        outer.update(inner.finish())
        return outer.finish()
    }
}

extension HMAC {
    /// Whether a given tag (or token) is the expected one, compared in a time that does not depend
    /// on where they differ, so a guesser learns nothing from how long a refusal takes.
    public static func matches(_ given: some StringProtocol, _ expected: some StringProtocol) -> Bool {
        let (a, b) = (Array(given.utf8), Array(expected.utf8))
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
