/// A change of the picture: `filter NAME…`, `brightness N`, `contrast N`, `saturation N`, `hue N`,
/// `zoom FACTOR [at X,Y]`, `aspect W:H|camera`, `mirror preview|photos|both|none`, `rotate DEGREES [pixels]`,
/// `overlay PNG|none`, `caption TEXT|none …`, `stamp FORMAT|none …`, `background PICTURE|none …`.
/// Written before the first step it sets up the session; after it, it is a step that changes the
/// running session.
public enum ImageChange: Sendable, Equatable {
    /// Named filters, applied in order.
    case filters([String])
    /// `brightness`, `contrast`, `saturation` or `hue`, and its value.
    case adjustment(String, Double)
    /// The zoom factor, and where it is centred (fractions of the frame), if said.
    case zoom(Double, centerX: Double?, centerY: Double?)
    /// `W:H`, or `nil` for the camera's own.
    case aspect(String?)
    /// `preview`, `photos`, `both` or `none`.
    case mirror(String)
    /// Clockwise degrees: 0, 90, 180 or 270; with `pixels`, photos are turned in their pixels.
    case rotate(Int, pixels: Bool)
    /// A PNG drawn over the picture, or `nil` (`overlay none`) for none.
    case overlay(String?)
    /// Words on the picture (`caption`), or each frame's time (`stamp`, a strftime format); `nil`
    /// (`caption none`) takes them away.
    case text(TextWords?, stamp: Bool)
    /// A green screen replaced by a picture, or `nil` (`background none`) for none.
    case background(BackgroundWords?)

    /// The line that writes the change.
    var text: String {
        func number(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        switch self {
        case .filters(let names): return "filter " + names.joined(separator: " ")
        case .adjustment(let name, let value): return "\(name) \(number(value))"
        case .zoom(let factor, let x?, let y?): return "zoom \(number(factor)) at \(number(x)),\(number(y))"
        case .zoom(let factor, _, _): return "zoom \(number(factor))"
        case .aspect(let ratio): return "aspect \(ratio ?? "camera")"
        case .mirror(let choice): return "mirror \(choice)"
        case .rotate(let degrees, let pixels): return "rotate \(degrees)" + (pixels ? " pixels" : "")
        case .overlay(let path): return "overlay " + (path.map { "\"\($0)\"" } ?? "none")
        case .text(let words, let stamp): return (stamp ? "stamp " : "caption ") + (words?.text ?? "none")
        case .background(let words): return "background " + (words?.text ?? "none")
        }
    }
}

/// A caption's or stamp's words and how they look: `"TEXT" [at PLACE] [size PERCENT] [font FAMILY]
/// [color COLOR]`. What is not said is the camera library's default.
public struct TextWords: Sendable, Equatable {
    public var words: String
    public var place: String?
    /// Percent of the picture's height.
    public var size: Double?
    public var font: String?
    public var color: String?

    public init(words: String, place: String? = nil, size: Double? = nil, font: String? = nil, color: String? = nil) {
        (self.words, self.place, self.size, self.font, self.color) = (words, place, size, font, color)
    }

    /// The option words of a caption or stamp, each taking one value.
    static let options = ["at", "size", "font", "color"]

    var text: String {
        var parts = ["\"" + words.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""]
        if let place { parts.append("at \(place)") }
        if let size { parts.append("size \(size == size.rounded() ? String(Int(size)) : String(size))") }
        if let font { parts.append("font \"\(font)\"") }
        if let color { parts.append("color \(color)") }
        return parts.joined(separator: " ")
    }
}

/// A green screen's background and keying: `PICTURE [key green|blue|COLOR] [tolerance DEGREES]
/// [softness N]`. What is not said is the camera library's default.
public struct BackgroundWords: Sendable, Equatable {
    public var picture: String
    public var key: String?
    public var tolerance: Double?
    public var softness: Double?

    public init(picture: String, key: String? = nil, tolerance: Double? = nil, softness: Double? = nil) {
        (self.picture, self.key, self.tolerance, self.softness) = (picture, key, tolerance, softness)
    }

    static let options = ["key", "tolerance", "softness"]

    var text: String {
        var parts = ["\"" + picture.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""]
        if let key { parts.append("key \(key)") }
        for (word, value) in [("tolerance", tolerance), ("softness", softness)] {
            if let value { parts.append("\(word) \(value == value.rounded() ? String(Int(value)) : String(value))") }
        }
        return parts.joined(separator: " ")
    }
}

/// What the image words accept: the filter names and the ranges of the numbers, as the camera
/// library defines them.
public struct ImageVocabulary: Sendable, Equatable {
    public var filters: [String]
    /// `brightness`, `contrast`, `saturation`, `hue` and `zoom` to their ranges.
    public var ranges: [String: ClosedRange<Double>]
    /// The places words may go (`bottom-left`, `top`, …).
    public var textPlaces: [String]

    public init(filters: [String], ranges: [String: ClosedRange<Double>], textPlaces: [String] = []) {
        self.filters = filters
        self.ranges = ranges
        self.textPlaces = textPlaces
    }

    /// No image words: a file that uses one is told they are not available.
    public static let none = ImageVocabulary(filters: [], ranges: [:])

    /// The words that change the picture (`filter NAME` is one too, told from the raw `filter "…"` by its argument).
    enum Word: String, CaseIterable {
        case filter, brightness, contrast, saturation, hue, zoom, aspect, mirror, rotate, overlay, caption, stamp, background
    }

    static let words = Word.allCases.map(\.rawValue).filter { $0 != Word.filter.rawValue }
}
