import Checksums
import Glibc
import Synchronization
import Testing
import TestSupport

@Suite("SHA-256 and HMAC", .hangGuard(minutes: 3))
struct ChecksumsTests {
    @Test("SHA-256 gives the standard's digests", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func digests(message: String, digest: String) async {
        #expect(SHA256.hash(Array(message.utf8)).hexDigits == digest)
    }

    @Test("A million a's, fed in pieces, hash as one")
    func pieces() async {
        var hash = SHA256()
        for _ in 0..<1000 { hash.update([UInt8](repeating: 0x61, count: 1000)) }
        #expect(hash.finish().hexDigits == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("HMAC-SHA-256 gives RFC 4231's tags")
    func hmac() async {
        #expect(HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8)).hexDigits
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(HMAC.sha256(key: [UInt8](repeating: 0xaa, count: 131),
                            message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)).hexDigits
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test("A copy of a hash in progress goes on alone: each gives its own digest, and a finished hash starts again")
    func copies() async {
        var first = SHA256()
        first.update(Array("ab".utf8))
        var second = first
        first.update(Array("c".utf8))
        second.update(Array("d".utf8))
        #expect(first.finish().hexDigits == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(second.finish() == SHA256.hash(Array("abd".utf8)))
        #expect(first.finish().hexDigits == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("Tokens match only when equal, whatever their lengths")
    func matching() async {
        #expect(HMAC.matches("abc123", "abc123") && HMAC.matches("", ""))
        #expect(!HMAC.matches("abc123", "abc124") && !HMAC.matches("abc", "abc123") && !HMAC.matches("", "a"))
    }

    @Test("A file's checksum is remembered while the file is unchanged: one just written is not yet, one written since or replaced by another is read again")
    func rememberedFiles() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.file("photo.jpg", holding: "first")
        let clock = Atomic<Int64>(Int64(time(nil)))
        var checksums = FileChecksums { clock.load(ordering: .relaxed) }
        func checksum() -> String? {
            let descriptor = open(path, O_RDONLY)
            defer { close(descriptor) }
            return checksums.sha256(of: descriptor, key: 7)
        }
        let first = SHA256.hash(Array("first".utf8)).hexDigits
        // Changed this second: a write within the same tick could leave its change time as it is.
        #expect(checksum() == first && checksum() == first && checksums.filesHashed == 2)

        clock.add(FileChecksums.settled, ordering: .relaxed)
        #expect(checksum() == first && checksum() == first && checksums.filesHashed == 3, "settled, it is read once more and then remembered")

        // Written in place.
        let descriptor = open(path, O_WRONLY)
        _ = Array("second".utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        clock.add(FileChecksums.settled, ordering: .relaxed)
        #expect(checksum() == SHA256.hash(Array("second".utf8)).hexDigits && checksums.filesHashed == 4)

        // Replaced by another file under its name.
        let replacement = try folder.file("new.jpg", holding: "third")
        #expect(rename(replacement, path) == 0)
        clock.add(FileChecksums.settled, ordering: .relaxed)
        #expect(checksum() == SHA256.hash(Array("third".utf8)).hexDigits && checksums.filesHashed == 5)
        #expect(checksum() == SHA256.hash(Array("third".utf8)).hexDigits && checksums.filesHashed == 5)
    }
}
