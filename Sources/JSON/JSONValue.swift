import FoundationEssentials

/// A JSON value read from outside bytes (request bodies, MQTT messages, other programs'
/// output) or to be written as JSON text.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in 64 bits.
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The deepest nesting of arrays and objects read; deeper text is refused before it is parsed.
    public static let maximumDepth = 64

    /// The value of one JSON text.
    ///
    /// - Throws: ``JSONError`` when the bytes are not JSON (UTF-8, one value, nothing after it)
    ///   or nest deeper than ``maximumDepth``.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONError) {
        let data = Data(bytes)
        guard Self.nestingFits(data) else { throw JSONError(reason: "it nests deeper than \(Self.maximumDepth) levels") }
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw JSONError(reason: "it is not valid JSON")
        }
    }

    /// The value as JSON text in UTF-8, object keys sorted and `/` not escaped; with `pretty`,
    /// indented over several lines.
    public func text(pretty: Bool = false) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a tree of these cases cannot fail: every number in it is finite.
        return Array((try? encoder.encode(self)) ?? Data("null".utf8))
    }

    /// Whether arrays and objects nest no deeper than ``maximumDepth``, counted outside strings.
    public static func nestingFits(_ data: Data) -> Bool {
        var structure = JSONStructure()
        for byte in data {
            if structure.step(byte) == .opened, structure.depth > maximumDepth { return false }
        }
        return true
    }
}

/// JSON text that could not be read.
public struct JSONError: Error, Sendable, Equatable {
    /// Why, as the end of a sentence: "it is not valid JSON".
    public let reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

extension JSONValue {
    /// The member `key` of an object; `nil` for a missing member and for values that are not objects.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    public var bool: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    /// A number, whether written with a fraction or not.
    public var double: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .number(let number): number
        default: nil
        }
    }

    /// A number that is a whole number that fits in `Int`.
    public var int: Int? {
        switch self {
        case .integer(let number): Int(exactly: number)
        case .number(let number): Int(exactly: number)
        default: nil
        }
    }

    public var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    public var object: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

}

extension JSONValue: Equatable {
    /// Numbers are equal by value, whether written whole or not (`1000` and `1e3`).
    public static func == (left: JSONValue, right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.integer, .number), (.number, .integer), (.number, .number): left.double == right.double
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int64.self) {
            self = .integer(number)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .integer(let number): try container.encode(number)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let elements): try container.encode(elements)
        case .object(let members): try container.encode(members)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral members: (String, JSONValue)...) {
        self = .object(Dictionary(members) { _, last in last })
    }
}
