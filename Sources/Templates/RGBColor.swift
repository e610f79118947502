/// A colour of 8-bit red, green and blue, written as a name (`white`, `green`) or `#RRGGBB`.
public struct RGBColor: Sendable, Equatable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    /// The colours known by name.
    public static let named: [(name: String, color: RGBColor)] = [
        ("white", RGBColor(red: 255, green: 255, blue: 255)), ("black", RGBColor(red: 0, green: 0, blue: 0)),
        ("red", RGBColor(red: 255, green: 0, blue: 0)), ("green", RGBColor(red: 0, green: 255, blue: 0)),
        ("blue", RGBColor(red: 0, green: 0, blue: 255)), ("yellow", RGBColor(red: 255, green: 255, blue: 0)),
        ("cyan", RGBColor(red: 0, green: 255, blue: 255)), ("magenta", RGBColor(red: 255, green: 0, blue: 255)),
        ("grey", RGBColor(red: 128, green: 128, blue: 128)), ("gold", RGBColor(red: 255, green: 215, blue: 0)),
    ]

    /// Reads a name of ``named`` or `#RRGGBB` (the `#` may be left out); `nil` for anything else.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if let known = Self.named.first(where: { $0.name == lowered }) {
            self = known.color
            return
        }
        let digits = lowered.hasPrefix("#") ? String(lowered.dropFirst()) : lowered
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xff), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
    }

    /// Why `text` is not a colour, and what is.
    public static func refusal(of text: String) -> String {
        "\"\(text)\" is not a colour; use #RRGGBB, such as #ffcc00, or " + named.map(\.name).joined(separator: ", ")
    }

    /// `#rrggbb`, as ``init(parsing:)`` reads it back.
    public var hex: String {
        "#" + [red, green, blue].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Opaque, as GStreamer's text overlay takes a colour: `0xAARRGGBB`.
    public var argb: UInt32 { 0xff00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }
}
