/// GIF's variant of LZW: codes of 3 to 12 bits, least significant bit first, a clear code first and
/// whenever the table of 4096 codes fills, the end code last.
struct LZWEncoder {
    /// The bits of a palette index (8 for 256 colours; at least 2, as GIF asks).
    let minimumCodeSize: Int

    /// The compressed form of `indexes`, each below `1 << minimumCodeSize`.
    func encode(_ indexes: [UInt8]) -> [UInt8] {
        let clear = 1 << minimumCodeSize, end = clear + 1
        var output = BitWriter()
        var table = CodeTable()
        var codeSize = minimumCodeSize + 1
        var next = end + 1

        func emit(_ code: Int) {
            output.write(code, bits: codeSize)
            // The decoder widens its codes when its table (one entry behind) reaches the width's end.
            if code != clear, next >= 1 << codeSize, codeSize < 12 { codeSize += 1 }
        }

        emit(clear)
        guard var prefix = indexes.first.map(Int.init) else {
            emit(end)
            return output.finished()
        }
        for byte in indexes.dropFirst() {
            let key = prefix << 8 | Int(byte)
            if let code = table[key] {
                prefix = code
                continue
            }
            emit(prefix)
            prefix = Int(byte)
            if next >= 4095 {
                emit(clear)
                (next, codeSize) = (end + 1, minimumCodeSize + 1)
                table.removeAll()
            } else {
                table[key] = next
                next += 1
            }
        }
        emit(prefix)
        emit(end)
        return output.finished()
    }
}

/// The codes made so far, by (prefix code, next index): an open-addressed hash table that empties
/// at once when the codes start over.
private struct CodeTable {
    private static let size = 8192  // twice the codes, so probes stay short
    private var keys = [Int32](repeating: -1, count: size)
    private var codes = [Int16](repeating: 0, count: size)

    subscript(key: Int) -> Int? {
        get {
            var slot = Self.slot(key)
            while keys[slot] >= 0 {
                if keys[slot] == Int32(key) { return Int(codes[slot]) }
                slot = (slot + 1) & (Self.size - 1)
            }
            return nil
        }
        set {
            guard let newValue else { return }
            var slot = Self.slot(key)
            while keys[slot] >= 0, keys[slot] != Int32(key) { slot = (slot + 1) & (Self.size - 1) }
            keys[slot] = Int32(key)
            codes[slot] = Int16(newValue)
        }
    }

    mutating func removeAll() {
        for index in keys.indices { keys[index] = -1 }
    }

    private static func slot(_ key: Int) -> Int {
        (key &* 0x9E37_79B1) >> 7 & (size - 1)
    }
}

/// Packs codes least significant bit first into bytes.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var pending = 0
    private var pendingBits = 0

    mutating func write(_ code: Int, bits: Int) {
        pending |= code << pendingBits
        pendingBits += bits
        while pendingBits >= 8 {
            bytes.append(UInt8(pending & 0xFF))
            pending >>= 8
            pendingBits -= 8
        }
    }

    mutating func finished() -> [UInt8] {
        if pendingBits > 0 { bytes.append(UInt8(pending & 0xFF)) }
        return bytes
    }
}
