/// JSON texts written one after another, as a program that prints a value per update writes them.
extension JSONValue {
    /// The values of JSON texts written one after another, whitespace or nothing between them
    /// (nothing only after an array, an object or a string).
    ///
    /// - Throws: ``JSONError`` when any of them is not JSON, or nests too deep.
    public static func sequence(parsing bytes: some Collection<UInt8>) throws(JSONError) -> [JSONValue] {
        let bytes = Array(bytes)
        var values: [JSONValue] = []
        var index = 0
        while true {
            while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
            guard index < bytes.count else { return values }
            let end = endOfText(in: bytes, from: index)
            values.append(try JSONValue(parsing: bytes[index..<end]))
            index = end
        }
    }

    /// Where the text starting at `start` ends: after the bracket that closes an array or object
    /// (counted outside strings), after the quote that closes a string, else at the next whitespace.
    /// Text left open ends with the bytes, and reading it then says it is not JSON.
    private static func endOfText(in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        guard [UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "\"")].contains(bytes[start]) else {
            while index < bytes.count, !isWhitespace(bytes[index]) { index += 1 }
            return index
        }
        var structure = JSONStructure()
        while index < bytes.count {
            let step = structure.step(bytes[index])
            index += 1
            switch step {
            case .stringEnded where structure.depth == 0: return index
            case .closed where structure.depth <= 0: return index
            default: continue
            }
        }
        return index
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
