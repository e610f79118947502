import FoundationEssentials
import JSON

/// How every record of the wire is written and read: one JSON object per record, keys in snake
/// case and sorted, `/` not escaped; read back only when it nests no deeper than
/// ``JSONValue/maximumDepth``.
public enum WireJSON {
    /// The vocabulary's version, sent in every event, outcome and status (`"version": 1`). It
    /// grows when a field changes meaning or goes; new fields leave it as it is.
    public static let version = 1

    /// `value` as one JSON text in UTF-8; with `pretty`, indented over several lines.
    public static func bytes(_ value: some Encodable, pretty: Bool = false) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        // The records hold strings, integers and finite numbers only: encoding them cannot fail.
        return (try? Array(encoder.encode(value))) ?? Array("null".utf8)
    }

    /// The record `bytes` hold, read from another program or machine.
    ///
    /// - Throws: ``JSONError`` when the bytes are not JSON, nest too deep, or are not the record.
    public static func decode<Record: Decodable>(_ type: Record.Type, from bytes: some Collection<UInt8>) throws(JSONError) -> Record {
        let data = Data(bytes)
        guard JSONValue.nestingFits(data) else { throw JSONError(reason: "it nests deeper than \(JSONValue.maximumDepth) levels") }
        do {
            return try JSONDecoder().decode(Record.self, from: data)
        } catch {
            throw JSONError(reason: "it is not valid JSON, or not the record expected")
        }
    }
}
