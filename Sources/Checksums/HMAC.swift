internal import CCrypto

/// HMAC with SHA-256 (RFC 2104) by OpenSSL's libcrypto: a tag that only a holder of the key can
/// make, such as a photo's download link that cannot be guessed.
public enum HMAC {
    /// The tag of `message` under `key`.
    public static func sha256(key: [UInt8], message: some Sequence<UInt8>) -> [UInt8] {
        var tag = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        let bytes = Array(message)
        key.withUnsafeBytes { key in
            bytes.withUnsafeBufferPointer { message in
                _ = Crypto.api.hmac(Crypto.api.sha256(), key.baseAddress, Int32(key.count), message.baseAddress, message.count, &tag, &length)
            }
        }
        return tag
    }
}

extension HMAC {
    /// Whether a given tag (or token) is the expected one, compared in a time that does not depend
    /// on where they differ (libcrypto's `CRYPTO_memcmp`), so a guesser learns nothing from how long a refusal takes.
    public static func matches(_ given: some StringProtocol, _ expected: some StringProtocol) -> Bool {
        let (a, b) = (Array(given.utf8), Array(expected.utf8))
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { a in b.withUnsafeBytes { b in Crypto.api.memcmp(a.baseAddress, b.baseAddress, a.count) == 0 } }
    }
}
