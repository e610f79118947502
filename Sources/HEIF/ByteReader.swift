/// Reads big-endian fields and boxes from bytes, refusing to read past the end.
struct ByteReader {
    private let data: [UInt8]
    private var position: Int
    private let end: Int

    init(_ data: [UInt8]) {
        self.init(data, from: 0, to: data.count)
    }

    private init(_ data: [UInt8], from start: Int, to end: Int) {
        self.data = data
        position = start
        self.end = end
    }

    var isAtEnd: Bool { position >= end }

    mutating func bytes(_ count: Int) throws(HEIFError) -> [UInt8] {
        guard count >= 0, count <= end - position else {
            throw HEIFError("the data ends \(count - (end - position)) bytes early, inside a box")
        }
        defer { position += count }
        return Array(data[position..<position + count])
    }

    mutating func u8() throws(HEIFError) -> UInt8 { try bytes(1)[0] }
    mutating func u16() throws(HEIFError) -> Int { try integer(2) }
    mutating func u32() throws(HEIFError) -> Int { try integer(4) }

    /// A big-endian unsigned integer of 0, 2, 4 or 8 bytes.
    mutating func integer(_ size: Int) throws(HEIFError) -> Int {
        let value = try bytes(size).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard value <= UInt64(Int.max) else { throw HEIFError("a field holds \(value), too large for this reader") }
        return Int(value)
    }

    mutating func fourCC() throws(HEIFError) -> String {
        String(decoding: try bytes(4), as: UTF8.self)
    }

    /// The next box: its type and a reader over its body.
    mutating func box() throws(HEIFError) -> (type: String, body: ByteReader) {
        let start = position
        var size = try u32()
        let type = try fourCC()
        if size == 1 {
            size = try integer(8)
        } else if size == 0 {
            size = end - start
        }
        let headerLength = position - start
        guard size >= headerLength, size <= end - start else {
            throw HEIFError("the \(type) box says it is \(size) bytes, but \(end - start) remain")
        }
        let body = ByteReader(data, from: position, to: start + size)
        position = start + size
        return (type, body)
    }
}
