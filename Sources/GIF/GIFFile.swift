/// What a GIF file says of itself: its screen's size, its pictures and how long they play. Reads
/// the block structure only (no picture is decoded), checking every length against the bytes.
public struct GIFFile: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// The pictures (image blocks) in the file.
    public let frameCount: Int
    /// Seconds: the pictures' delays added up.
    public let duration: Double

    /// A GIF file that is not one, or is cut short.
    public struct Malformed: Error, Sendable, Equatable {
        public let reason: String
    }

    /// Reads `bytes` as a GIF file, which must be whole (up to its trailer).
    public init(parsing bytes: [UInt8]) throws(Malformed) {
        var reader = Reader(bytes: bytes)
        let signature = try reader.take(6)
        guard signature.elementsEqual("GIF89a".utf8) || signature.elementsEqual("GIF87a".utf8) else {
            throw Malformed(reason: "the file does not begin as a GIF does")
        }
        width = try reader.littleEndian16()
        height = try reader.littleEndian16()
        let flags = try reader.byte()
        _ = try reader.take(2)
        if flags & 0x80 != 0 { _ = try reader.take(3 << (Int(flags & 7) + 1)) }
        var frames = 0, hundredths = 0, delay = 0
        while true {
            switch try reader.byte() {
            case 0x21:
                let label = try reader.byte()
                let first = try reader.subBlock()
                if label == 0xF9, first.count >= 4 { delay = Int(first[first.startIndex + 1]) | Int(first[first.startIndex + 2]) << 8 }
                if !first.isEmpty { try reader.skipSubBlocks() }
            case 0x2C:
                _ = try reader.take(8)
                let imageFlags = try reader.byte()
                if imageFlags & 0x80 != 0 { _ = try reader.take(3 << (Int(imageFlags & 7) + 1)) }
                let codeSize = try reader.byte()
                guard (2...11).contains(codeSize) else { throw Malformed(reason: "a picture's code size is \(codeSize), outside 2 to 11") }
                try reader.skipSubBlocks()
                frames += 1
                hundredths += delay
                delay = 0
            case 0x3B:
                guard frames > 0 else { throw Malformed(reason: "the file has no picture") }
                (frameCount, duration) = (frames, Double(hundredths) / 100)
                return
            case let other:
                throw Malformed(reason: "a block begins with \(other), which no GIF block does")
            }
        }
    }

    /// The bytes read in order; every read checks that the bytes are there.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func take(_ count: Int) throws(Malformed) -> ArraySlice<UInt8> {
            guard count >= 0, count <= bytes.count - offset else { throw Malformed(reason: "the file ends inside a block") }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func byte() throws(Malformed) -> UInt8 {
            try take(1).first!
        }

        mutating func littleEndian16() throws(Malformed) -> Int {
            let pair = try take(2)
            return Int(pair[pair.startIndex]) | Int(pair[pair.startIndex + 1]) << 8
        }

        /// One data sub-block (its length byte, then that many bytes); empty for the terminator.
        mutating func subBlock() throws(Malformed) -> ArraySlice<UInt8> {
            try take(Int(try byte()))
        }

        /// The sub-blocks up to and including their terminator.
        mutating func skipSubBlocks() throws(Malformed) {
            while try !subBlock().isEmpty {}
        }
    }
}
