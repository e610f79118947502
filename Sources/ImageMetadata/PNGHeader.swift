/// What a PNG file's header says: its signature and IHDR chunk, read and checked (lengths, values
/// and the chunk's CRC) without decoding a pixel, so a picture too large to decode is refused
/// before any decoder allocates it.
public struct PNGHeader: Sendable, Equatable {
    /// A PNG header that is missing, damaged or out of range.
    public enum Problem: Error, Sendable, Equatable {
        /// The data does not start with the PNG signature and an IHDR chunk.
        case notPNG
        /// The header is there but holds impossible values or a wrong checksum.
        case damaged(String)
        /// The picture has more pixels than ``maximumPixels`` or a side longer than ``maximumSide``.
        case tooLarge(width: Int, height: Int)
    }

    /// The largest picture accepted, in pixels: 8192x8192 (about 256 MB when decoded to RGBA).
    public static let maximumPixels = 8192 * 8192
    /// The longest side accepted, in pixels.
    public static let maximumSide = 16384
    /// How many bytes of a file the header takes: the signature and the whole IHDR chunk.
    public static let byteCount = 33

    public let width: Int
    public let height: Int
    /// Bits per sample: 1, 2, 4, 8 or 16.
    public let bitDepth: Int
    /// 0 grey, 2 RGB, 3 palette, 4 grey with alpha, 6 RGB with alpha.
    public let colourType: Int

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the header from the first ``byteCount`` bytes of a file (more are ignored).
    public init(parsing data: some Collection<UInt8>) throws(Problem) {
        let bytes = Array(data.prefix(Self.byteCount))
        guard bytes.count == Self.byteCount, Array(bytes[0..<8]) == Self.signature,
              Array(bytes[12..<16]) == Array("IHDR".utf8) else { throw .notPNG }
        func number(_ offset: Int) -> Int { bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        guard number(8) == 13 else { throw .damaged("its IHDR chunk is \(number(8)) bytes long, not 13") }
        guard UInt32(number(29)) == CRC32.checksum(bytes[12..<29]) else { throw .damaged("its header's checksum is wrong") }
        width = number(16)
        height = number(20)
        bitDepth = Int(bytes[24])
        colourType = Int(bytes[25])
        // The PNG format limits sides to 2^31 - 1; zero is not a picture.
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw .damaged("its size \(width)x\(height) is impossible")
        }
        let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let allowed = depths[colourType], allowed.contains(bitDepth) else {
            throw .damaged("colour type \(colourType) with \(bitDepth)-bit samples does not exist")
        }
        guard bytes[26] == 0, bytes[27] == 0, bytes[28] <= 1 else {
            throw .damaged("its compression, filter or interlace method is unknown")
        }
        guard width <= Self.maximumSide, height <= Self.maximumSide, width * height <= Self.maximumPixels else {
            throw .tooLarge(width: width, height: height)
        }
    }
}

extension PNGHeader {
    /// Checks a whole PNG file's chunks without decoding them: the header as ``init(parsing:)``
    /// reads it, then every chunk's length within the file and its CRC, at least one IDAT (image
    /// data) and an IEND at the end. A file cut short or damaged in transit is refused here.
    public static func checkingChunks(of data: [UInt8]) throws(Problem) -> PNGHeader {
        let header = try PNGHeader(parsing: data)
        var index = 8
        var sawImageData = false
        while true {
            guard data.count - index >= 12 else { throw .damaged("it ends before its IEND chunk; the file is cut short") }
            let length = data[index ..< index + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length <= Int(Int32.max), length <= data.count - index - 12 else {
                throw .damaged("a chunk says it is \(length) bytes long, more than the file holds")
            }
            let type = Array(data[index + 4 ..< index + 8])
            let stored = data[index + 8 + length ..< index + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard stored == CRC32.checksum(data[index + 4 ..< index + 8 + length]) else {
                throw .damaged("the checksum of its \(String(decoding: type, as: UTF8.self)) chunk is wrong")
            }
            index += 12 + length
            if type == Array("IDAT".utf8) { sawImageData = true }
            if type == Array("IEND".utf8) { break }
        }
        guard sawImageData else { throw .damaged("it has no image data (IDAT chunk)") }
        return header
    }
}
