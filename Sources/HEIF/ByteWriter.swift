/// Bytes written big-endian, as ISO base media file format boxes want them.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: Int) {
        bytes += [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }

    mutating func u32(_ value: Int) {
        bytes += (0..<4).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    mutating func fourCC(_ code: String) {
        precondition(code.utf8.count == 4, "a four-character code has four characters")
        bytes += Array(code.utf8)
    }

    mutating func append(_ data: some Sequence<UInt8>) { bytes += data }

    /// A null-terminated UTF-8 string.
    mutating func string(_ text: String) {
        bytes += Array(text.utf8) + [0]
    }

    /// A box: its size and type, then what `body` writes.
    mutating func box(_ type: String, _ body: (inout ByteWriter) -> Void) {
        var inner = ByteWriter()
        body(&inner)
        u32(8 + inner.bytes.count)
        fourCC(type)
        bytes += inner.bytes
    }

    /// A full box: a box whose body starts with a version and 24 bits of flags.
    mutating func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ body: (inout ByteWriter) -> Void) {
        box(type) { inner in
            inner.u8(version)
            inner.bytes += [UInt8(truncatingIfNeeded: flags >> 16), UInt8(truncatingIfNeeded: flags >> 8), UInt8(truncatingIfNeeded: flags)]
            body(&inner)
        }
    }

    /// Overwrites four bytes at `offset` with `value`.
    mutating func patchU32(at offset: Int, _ value: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> ((3 - index) * 8)) }
    }
}
