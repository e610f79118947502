internal import CZlib

/// The CRC-32 of PNG chunks, zip and gzip (zlib's, gigabytes a second).
public enum CRC32 {
    public static func checksum(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
        var crc = crc32(0, nil, 0)
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
