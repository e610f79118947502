internal import CZlib

/// The CRC-32 of PNG chunks, zip and gzip (zlib's, gigabytes a second).
public enum CRC32 {
    /// The CRC-32 of `buffer`, or of what came before it (whose CRC-32 is `previous`) and `buffer`.
    public static func checksum(_ buffer: UnsafeRawBufferPointer, continuing previous: UInt32 = 0) -> UInt32 {
        var crc = UInt(previous)
        var start = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self), left = buffer.count
        while left > 0 {
            let count = min(left, Int(UInt32.max))
            crc = crc32(crc, start, UInt32(count))
            start = start.map { $0 + count }
            left -= count
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    public static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        bytes.withContiguousStorageIfAvailable { checksum(UnsafeRawBufferPointer($0)) }
            ?? Array(bytes).withUnsafeBytes { checksum($0) }
    }
}
