import FoundationEssentials
import Glibc
/// The value of a field in a ``Structure`` or caps: numbers, text, fractions, ranges and lists.
///
/// Values are plain Swift data, safe to keep and to send between tasks.
public enum Value: Equatable, Sendable {
    /// A signed integer (`gint`, `gint64`, `glong`).
    case int(Int)
    /// An unsigned integer (`guint`, `guint64`, `gulong`).
    case uint(UInt)
    /// A floating-point number (`gdouble`, `gfloat`).
    case double(Double)
    /// A Boolean.
    case bool(Bool)
    /// Text.
    case string(String)
    /// A fraction, such as a frame rate.
    case fraction(Fraction)
    /// An inclusive integer range with a step (`[ 1, 32767 ]`).
    case intRange(ClosedRange<Int>, step: Int)
    /// An inclusive floating-point range.
    case doubleRange(ClosedRange<Double>)
    /// An inclusive fraction range (`[ 0/1, 2147483647/1 ]`).
    case fractionRange(ClosedRange<Fraction>)
    /// A choice among values (`{ I420, YUY2 }`).
    case list([Value])
    /// An ordered array of values (`< 1, 2 >`).
    case array([Value])
    /// A nested structure.
    case structure(Structure)
    /// An enumeration value, by its nick (`ball`, `rotate-90`).
    case enumeration(String)
    /// Caps, as properties such as `capsfilter`'s `caps` hold.
    case caps(Caps)
    /// Bytes held in a buffer, as the `codec_data` field of encoded caps.
    case bytes([UInt8])
    /// A value of another type, kept as GStreamer serialises it.
    case other(typeName: String, serialized: String)
}

extension Value {
    /// The bytes, if this is a buffer value.
    public var bytesValue: [UInt8]? {
        if case .bytes(let bytes) = self { return bytes }
        return nil
    }

    /// The integer, if this is a signed or unsigned integer that fits `Int`.
    public var intValue: Int? {
        switch self {
        case .int(let value): value
        case .uint(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The text, if this is a string or an enumeration nick.
    public var stringValue: String? {
        switch self {
        case .string(let value), .enumeration(let value): value
        default: nil
        }
    }

    /// The fraction, if this is a fraction.
    public var fractionValue: Fraction? {
        if case .fraction(let value) = self { return value }
        return nil
    }

    /// The number, if this is any number (fractions included).
    public var doubleValue: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        case .uint(let value): Double(value)
        case .fraction(let value): value.doubleValue
        default: nil
        }
    }

    /// The Boolean, if this is a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The values this one stands for: the members of a list, or the value itself.
    public var alternatives: [Value] {
        if case .list(let values) = self { return values }
        return [self]
    }
}

extension Value: CustomStringConvertible {
    /// The value as GStreamer would write it in a description, without type annotations.
    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .uint(let value): String(value)
        case .double(let value): String(value)
        case .bool(let value): String(value)
        case .string(let value): "\"\(value)\""
        case .enumeration(let nick): nick
        case .fraction(let value): value.description
        case .intRange(let range, let step):
            step == 1 ? "[ \(range.lowerBound), \(range.upperBound) ]" : "[ \(range.lowerBound), \(range.upperBound), \(step) ]"
        case .doubleRange(let range): "[ \(range.lowerBound), \(range.upperBound) ]"
        case .fractionRange(let range): "[ \(range.lowerBound), \(range.upperBound) ]"
        case .list(let values): "{ " + values.map(\.description).joined(separator: ", ") + " }"
        case .array(let values): "< " + values.map(\.description).joined(separator: ", ") + " >"
        case .structure(let structure): "[\(structure)]"
        case .caps(let caps): "\"\(caps)\""
        case .bytes(let bytes): bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        case .other(_, let serialized): serialized
        }
    }
}
