/// One HEVC-coded picture: its decoder configuration and one access unit.
public struct HEVCPicture: Sendable, Equatable {
    /// The HEVCDecoderConfigurationRecord (`hvcC`), as GStreamer's `h265parse` gives it in the
    /// caps' `codec_data` for `stream-format=hvc1`.
    public var configuration: [UInt8]
    /// One access unit of NAL units, each after a 4-byte big-endian length.
    public var accessUnit: [UInt8]
    /// The coded size in pixels.
    public var width: Int
    public var height: Int

    public init(configuration: [UInt8], accessUnit: [UInt8], width: Int, height: Int) {
        self.configuration = configuration
        self.accessUnit = accessUnit
        self.width = width
        self.height = height
    }

    /// The configuration as an item property: parameter-set arrays marked complete, as ISO/IEC
    /// 14496-15 requires for `hvc1` (GStreamer leaves the bit clear).
    func itemConfiguration() throws(HEIFError) -> [UInt8] {
        var record = configuration
        guard record.count >= 23, record[0] == 1 else {
            throw HEIFError("the HEVC decoder configuration is \(record.count) bytes, not an hvcC record")
        }
        guard record[21] & 0x03 == 3 else {
            throw HEIFError("the HEVC stream uses \(Int(record[21] & 0x03) + 1)-byte NAL lengths; HEIF readers expect 4")
        }
        var index = 23
        for _ in 0..<Int(record[22]) {
            guard index + 3 <= record.count else { throw HEIFError("the hvcC record ends inside a NAL unit array") }
            let type = record[index] & 0x3F
            if (32...34).contains(type) { record[index] |= 0x80 }
            let count = Int(record[index + 1]) << 8 | Int(record[index + 2])
            index += 3
            for _ in 0..<count {
                guard index + 2 <= record.count else { throw HEIFError("the hvcC record ends inside a NAL unit") }
                index += 2 + (Int(record[index]) << 8 | Int(record[index + 1]))
            }
            guard index <= record.count else { throw HEIFError("a NAL unit runs past the end of the hvcC record") }
        }
        return record
    }

    /// The item's data: the access unit's picture (VCL) NAL units only; the parameter sets are
    /// in the configuration and the encoder's SEI is not part of the picture.
    func itemData() throws(HEIFError) -> [UInt8] {
        var data: [UInt8] = []
        var index = 0
        while index < accessUnit.count {
            guard index + 5 <= accessUnit.count else { throw HEIFError("the access unit ends inside a NAL unit length") }
            let length = accessUnit[index..<index + 4].reduce(0) { $0 << 8 | Int($1) }
            guard length > 0, index + 4 + length <= accessUnit.count else {
                throw HEIFError("a NAL unit of \(length) bytes runs past the end of the access unit")
            }
            let type = (accessUnit[index + 4] >> 1) & 0x3F
            if type < 32 { data += accessUnit[index..<index + 4 + length] }
            index += 4 + length
        }
        guard !data.isEmpty else { throw HEIFError("the access unit holds no picture") }
        return data
    }

    /// Whether the access unit holds a coded picture (a slice), not parameter sets alone.
    public var holdsPicture: Bool {
        (try? itemData()) != nil
    }

    /// Bits per channel, from the configuration: luma, then chroma twice.
    var bitsPerChannel: [UInt8] {
        guard configuration.count >= 19 else { return [8, 8, 8] }
        let luma = 8 + (configuration[17] & 0x07), chroma = 8 + (configuration[18] & 0x07)
        return [luma, chroma, chroma]
    }
}

/// A HEIF file that could not be written or read, said in one sentence.
public struct HEIFError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
