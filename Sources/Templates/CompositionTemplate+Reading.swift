import JSON

extension CompositionTemplate {
    /// The largest template file read, in bytes.
    public static let maximumFileSize = 1_048_576
    /// A composed picture's longest side, and its most pixels.
    public static let maximumSide = 8192
    public static let maximumPixels = 6000 * 6000
    public static let maximumSlots = 64
    public static let maximumOverlays = 16
    public static let maximumTexts = 16

    /// Reads a template file's JSON:
    ///
    /// ```json
    /// {"width": 1200, "height": 1800, "background": "#ffffff",
    ///  "slots": [{"x": 60, "y": 60, "width": 1080, "height": 720, "rotation": -3, "fit": "cover"}],
    ///  "overlays": [{"picture": "frame.png"}],
    ///  "texts": [{"text": "Anna & Ben", "x": 600, "y": 1700, "size": 60, "font": "Serif", "color": "#333333"},
    ///            {"date": "%e %B %Y", "x": 600, "y": 1760, "size": 30}]}
    /// ```
    /// `background` is a colour or `{"picture": NAME}`; an overlay without a rectangle covers the
    /// whole picture. Every number, name and key is checked; a key it does not know is refused.
    ///
    /// - Throws: ``TemplateError`` saying what is wrong and where.
    public init(json bytes: some Collection<UInt8>) throws(TemplateError) {
        guard bytes.count <= Self.maximumFileSize else {
            throw TemplateError("it is larger than \(Self.maximumFileSize / 1_048_576) MiB")
        }
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes)
        } catch {
            throw TemplateError(error.reason)
        }
        let template = try Fields(root, at: "the template", allowed: ["width", "height", "background", "slots", "overlays", "texts"])
        width = try template.integer("width", in: 16...Self.maximumSide)
        height = try template.integer("height", in: 16...Self.maximumSide)
        guard width * height <= Self.maximumPixels else {
            throw TemplateError("the template is \(width)x\(height) pixels, more than the \(Self.maximumPixels / 1_000_000) megapixels a composed picture may have")
        }
        let (width, height) = (width, height)
        switch template.values["background"] {
        case nil: background = .color(.white)
        case .string(let text)?:
            guard let color = RGBColor(parsing: text) else { throw TemplateError("the background: \(RGBColor.refusal(of: text))") }
            background = .color(color)
        case let value?:
            let picture = try Fields(value, at: "the background", allowed: ["picture"])
            background = .picture(try picture.pictureName("picture"))
        }
        let slotValues = try template.array("slots", at: 1...Self.maximumSlots)
        slots = try slotValues.enumerated().map { index, value throws(TemplateError) in
            let slot = try Fields(value, at: "slot \(index + 1)", allowed: ["x", "y", "width", "height", "rotation", "fit"])
            let placed = Slot(x: try slot.integer("x", in: -Self.maximumSide...Self.maximumSide),
                              y: try slot.integer("y", in: -Self.maximumSide...Self.maximumSide),
                              width: try slot.integer("width", in: 16...Self.maximumSide),
                              height: try slot.integer("height", in: 16...Self.maximumSide),
                              rotation: try slot.number("rotation", in: -360...360) ?? 0,
                              fit: try slot.choice("fit") ?? .cover)
            let (x, y) = placed.center
            guard (0..<Double(width)).contains(x), (0..<Double(height)).contains(y) else {
                throw TemplateError("slot \(index + 1)'s centre \(Int(x)),\(Int(y)) is off the \(width)x\(height) picture")
            }
            return placed
        }
        overlays = try template.array("overlays", at: 0...Self.maximumOverlays, required: false).enumerated().map { index, value throws(TemplateError) in
            let overlay = try Fields(value, at: "overlay \(index + 1)", allowed: ["picture", "x", "y", "width", "height"])
            return Overlay(picture: try overlay.pictureName("picture"),
                           x: try overlay.integer("x", in: -Self.maximumSide...Self.maximumSide, default: 0),
                           y: try overlay.integer("y", in: -Self.maximumSide...Self.maximumSide, default: 0),
                           width: try overlay.integer("width", in: 1...Self.maximumSide, default: width),
                           height: try overlay.integer("height", in: 1...Self.maximumSide, default: height))
        }
        texts = try template.array("texts", at: 0...Self.maximumTexts, required: false).enumerated().map { index, value throws(TemplateError) in
            let text = try Fields(value, at: "text \(index + 1)", allowed: ["text", "date", "x", "y", "size", "font", "color"])
            let content: Text.Content
            switch (text.values["text"], text.values["date"]) {
            case (.string(let words)?, nil): content = .words(try Self.checkedWords(words, at: "text \(index + 1)"))
            case (nil, .string(let format)?): content = .date(format: try Self.checkedWords(format, at: "text \(index + 1)'s date"))
            default: throw TemplateError("text \(index + 1) needs either \"text\" (words) or \"date\" (a strftime format), as a string")
            }
            var drawn = Text(content, x: try text.integer("x", in: 0...width - 1), y: try text.integer("y", in: 0...height - 1),
                             size: try text.integer("size", in: 4...1000))
            if let font = try text.string("font") {
                guard Self.isFontFamily(font) else {
                    throw TemplateError("text \(index + 1)'s font \"\(font)\" is not a font family; name one such as Sans, Serif or DejaVu Sans Mono")
                }
                drawn.font = font
            }
            if let color = try text.string("color") {
                guard let parsed = RGBColor(parsing: color) else { throw TemplateError("text \(index + 1)'s color: \(RGBColor.refusal(of: color))") }
                drawn.color = parsed
            }
            return drawn
        }
    }

    /// Whether `name` can be a font family: letters, digits, spaces and hyphens, not ending in a
    /// digit (which Pango would read as a size).
    public static func isFontFamily(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == " " || $0 == "-" }
            && name.last?.isNumber == false
    }

    private static func checkedWords(_ words: String, at place: String) throws(TemplateError) -> String {
        if let problem = DrawnText.problem(with: words) { throw TemplateError("\(place) \(problem)") }
        return words
    }

    /// An object's members, read by name with their checks.
    private struct Fields {
        let values: [String: JSONValue]
        let place: String

        init(_ value: JSONValue, at place: String, allowed: Set<String>) throws(TemplateError) {
            guard let object = value.object else { throw TemplateError("\(place) is not a JSON object") }
            if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
                throw TemplateError("\(place) has \"\(unknown)\", which a template does not know; use " + allowed.sorted().joined(separator: ", "))
            }
            (values, self.place) = (object, place)
        }

        func integer(_ key: String, in range: ClosedRange<Int>, default fallback: Int? = nil) throws(TemplateError) -> Int {
            guard let value = values[key] else {
                if let fallback { return fallback }
                throw TemplateError("\(place) lacks \"\(key)\"")
            }
            guard let number = value.int, range.contains(number) else {
                throw TemplateError("\(place)'s \(key) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }

        func number(_ key: String, in range: ClosedRange<Double>) throws(TemplateError) -> Double? {
            guard let value = values[key] else { return nil }
            guard let number = value.double, number.isFinite, range.contains(number) else {
                throw TemplateError("\(place)'s \(key) is not a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
            }
            return number
        }

        func string(_ key: String) throws(TemplateError) -> String? {
            guard let value = values[key] else { return nil }
            guard let text = value.string else { throw TemplateError("\(place)'s \(key) is not a string") }
            return text
        }

        func choice<T: RawRepresentable & CaseIterable>(_ key: String) throws(TemplateError) -> T? where T.RawValue == String {
            guard let text = try string(key) else { return nil }
            guard let chosen = T(rawValue: text) else {
                throw TemplateError("\(place)'s \(key) \"\(text)\" is not one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return chosen
        }

        func array(_ key: String, at counts: ClosedRange<Int>, required: Bool = true) throws(TemplateError) -> [JSONValue] {
            guard let value = values[key] else {
                if required { throw TemplateError("\(place) lacks \"\(key)\"") }
                return []
            }
            guard let items = value.array, counts.contains(items.count) else {
                throw TemplateError("\(place)'s \(key) is not a list of \(counts.lowerBound) to \(counts.upperBound) objects")
            }
            return items
        }

        /// A picture's name inside the template's folder: relative, without `..`, hidden parts or control characters.
        func pictureName(_ key: String) throws(TemplateError) -> String {
            guard let name = try string(key) else { throw TemplateError("\(place) lacks \"\(key)\"") }
            let parts = name.split(separator: "/", omittingEmptySubsequences: false)
            guard !name.isEmpty, name.utf8.count <= 255, !name.hasPrefix("/"),
                  parts.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") }),
                  !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw TemplateError("\(place)'s picture \"\(name)\" is not a file's name inside the template's folder")
            }
            return name
        }
    }
}

/// Why a template cannot be used, in one sentence's end: "slot 2's width is not a whole number …".
public struct TemplateError: Error, Sendable, Equatable {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }
}
