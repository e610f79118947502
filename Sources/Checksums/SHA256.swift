internal import CCrypto

/// SHA-256 (FIPS 180-4) by OpenSSL's libcrypto: a photo's checksum, and the hash under ``HMAC``.
///
/// ```swift
/// var hash = SHA256()
/// hash.update(bytes)
/// let digest = hash.finish()   // 32 bytes
/// ```
public struct SHA256: Sendable {
    /// The digest's length in bytes.
    public static let byteCount = 32

    /// The hash so far, shared by copies until one of them changes it.
    private var context = Context()

    public init() {}

    /// The digest of `bytes`.
    public static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hash = SHA256()
        hash.update(bytes)
        return hash.finish()
    }

    /// Adds bytes to what is hashed; contiguous bytes (an array, a slice of one) are read in place.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        if bytes.withContiguousStorageIfAvailable({ context.update(UnsafeRawBufferPointer($0)) }) == nil {
            Array(bytes).withUnsafeBytes { context.update($0) }
        }
    }

    /// The digest of everything added; the hash starts again empty.
    public mutating func finish() -> [UInt8] {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        return context.finish()
    }

    /// One libcrypto digest context, freed with the value.
    ///
    /// `@unchecked Sendable`: a context is changed only through a ``SHA256`` that holds it alone
    /// (a shared one is copied first), so no two threads ever touch one.
    private final class Context: @unchecked Sendable {
        private let raw: OpaquePointer

        init() {
            raw = Self.newContext()
            _ = Crypto.api.digest_init(raw, Crypto.api.sha256(), nil)
        }

        private init(copying other: Context) {
            raw = Self.newContext()
            _ = Crypto.api.context_copy(raw, other.raw)
        }

        /// A context, which libcrypto fails to make only when memory is exhausted.
        private static func newContext() -> OpaquePointer {
            guard let context = Crypto.api.context_new() else { fatalError("libcrypto could not make a digest context: out of memory") }
            return context
        }

        func copy() -> Context { Context(copying: self) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            _ = Crypto.api.digest_update(raw, base, bytes.count)
        }

        func finish() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: SHA256.byteCount)
            var length: UInt32 = 0
            _ = Crypto.api.digest_final(raw, &digest, &length)
            _ = Crypto.api.digest_init(raw, Crypto.api.sha256(), nil)
            return digest
        }

        deinit { Crypto.api.context_free(raw) }
    }
}

extension Sequence<UInt8> {
    /// The bytes as lower-case hex digits.
    public var hexDigits: String {
        let digits = Array("0123456789abcdef")
        return String(flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }
}
