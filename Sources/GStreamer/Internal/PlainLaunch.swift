/// A gst-launch description in its plain form, read so it can be built element by element: named
/// factories with `property=value` settings, linked by `!` (with caps between links, as in
/// `! video/x-raw,format=I420 !`), in chains that may start from a named element earlier in the
/// text (`split. ! queue`). That is the whole of what camctl writes.
///
/// Anything else gst-launch reads (bins, URIs, pad names, links into a named element, forward
/// references, escapes, single quotes, spaces around `=`) is not read here: ``init(_:)`` returns
/// `nil`, and the description is left to gst_parse, whose reading is the reference this one
/// agrees with wherever it reads at all.
struct PlainLaunch: Equatable {
    /// An element: its factory and its settings, in the order written (values as written, a
    /// value in double quotes without them, so possibly empty).
    struct Element: Equatable {
        var factory: String
        var properties: [Property]
        /// The name it is given, if any.
        var name: String? { properties.last { $0.name == "name" }?.value }
    }

    struct Property: Equatable {
        var name: String
        var value: String
    }

    /// A link from one element to another (indices into ``elements``), through a caps filter
    /// when caps are written between them.
    struct Link: Equatable {
        var from: Int
        var to: Int
        var caps: String?
    }

    var elements: [Element] = []
    var links: [Link] = []

    /// Reads `text`; `nil` when it is empty or not in the plain form.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        // gst_parse reads a C string, which ends at the first NUL.
        guard !bytes.contains(0) else { return nil }
        var reader = Reader(bytes)
        // The element the next link starts from, and the link written but not yet ended.
        var current: Int?
        var pending: (from: Int, caps: String?)?
        // Whether the token before was an element or one of its settings (so a setting belongs to it).
        var settingsMayFollow = false
        while let token = reader.next() {
            defer {
                switch token {
                case .element, .property: settingsMayFollow = true
                default: settingsMayFollow = false
                }
            }
            switch token {
            case .invalid:
                return nil
            case .element(let factory):
                elements.append(Element(factory: factory, properties: []))
                if let link = pending { links.append(Link(from: link.from, to: elements.count - 1, caps: link.caps)) }
                pending = nil
                current = elements.count - 1
            case .property(let name, let value):
                // Settings follow their element directly: not a reference, not a link.
                guard settingsMayFollow, let element = current else { return nil }
                elements[element].properties.append(Property(name: name, value: value))
            case .link(let caps):
                guard pending == nil, let element = current else { return nil }
                pending = (element, caps)
            case .reference(let name):
                // A chain starting from an element named earlier; linking into one is not plain.
                guard pending == nil, let element = elements.lastIndex(where: { $0.name == name }) else { return nil }
                current = element
            }
        }
        guard pending == nil, !elements.isEmpty else { return nil }
        // Names are unique, as a bin requires; an element's settings are each set once.
        let names = elements.compactMap(\.name)
        guard Set(names).count == names.count,
              elements.allSatisfy({ Set($0.properties.map(\.name)).count == $0.properties.count }) else { return nil }
    }

    private enum Token {
        case element(String)
        case property(name: String, value: String)
        case link(caps: String?)
        case reference(String)
        case invalid
    }

    /// Splits the text into tokens, byte by byte (everything that matters is ASCII).
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func next() -> Token? {
            skipSpaces()
            guard index < bytes.count else { return nil }
            return read()
        }

        private mutating func read() -> Token {
            if bytes[index] == UInt8(ascii: "!") {
                index += 1
                return readLink()
            }
            guard let identifier = readIdentifier() else { return .invalid }
            guard index < bytes.count else { return .element(identifier) }
            switch bytes[index] {
            case UInt8(ascii: "="):
                index += 1
                guard let value = readValue() else { return .invalid }
                return .property(name: identifier, value: value)
            case UInt8(ascii: "."):
                index += 1
                // `name.` alone: `name.pad` names a pad, which is not plain.
                guard index == bytes.count || Self.isSpace(bytes[index]) else { return .invalid }
                return .reference(identifier)
            case let byte where Self.isSpace(byte) || byte == UInt8(ascii: "!"):
                return .element(identifier)
            default:
                return .invalid
            }
        }

        /// After `!`: nothing, or caps up to the link's closing `!`.
        private mutating func readLink() -> Token {
            skipSpaces()
            guard startsCaps() else { return .link(caps: nil) }
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "!") {
                // Alternatives, escapes and quotes in caps are not plain.
                if [UInt8(ascii: ";"), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'")].contains(bytes[index]) { return .invalid }
                index += 1
            }
            // Caps end at the link's closing `!`.
            guard index < bytes.count else { return .invalid }
            var end = index
            while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }
            index += 1
            return .link(caps: String(decoding: bytes[start..<end], as: UTF8.self))
        }

        /// Whether caps start here: a media type, `type/subtype`, of letters, digits and `-`.
        private func startsCaps() -> Bool {
            var position = index
            func mediaPart() -> Bool {
                let start = position
                while position < bytes.count, Self.isMediaCharacter(bytes[position]) { position += 1 }
                return position > start
            }
            guard mediaPart(), position < bytes.count, bytes[position] == UInt8(ascii: "/") else { return false }
            position += 1
            return mediaPart()
        }

        /// A letter, then letters, digits, `-`, `_` and `%`.
        private mutating func readIdentifier() -> String? {
            guard Self.isLetter(bytes[index]) else { return nil }
            let start = index
            while index < bytes.count, Self.isLetter(bytes[index]) || Self.isDigit(bytes[index])
                    || [UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "%")].contains(bytes[index]) {
                index += 1
            }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A value: `"…"` without quotes or backslashes inside, or a run of anything but spaces,
        /// quotes, backslashes and `!`. It must end at a space, a link or the end.
        private mutating func readValue() -> String? {
            guard index < bytes.count else { return nil }
            let value: String
            if bytes[index] == UInt8(ascii: "\"") {
                let start = index + 1
                guard let close = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                guard !bytes[start..<close].contains(UInt8(ascii: "\\")) else { return nil }
                value = String(decoding: bytes[start..<close], as: UTF8.self)
                index = close + 1
            } else {
                let start = index
                while index < bytes.count, !Self.isSpace(bytes[index]) {
                    if [UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "!")].contains(bytes[index]) { return nil }
                    index += 1
                }
                guard index > start else { return nil }
                value = String(decoding: bytes[start..<index], as: UTF8.self)
            }
            guard index == bytes.count || Self.isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "!") else { return nil }
            return value
        }

        private mutating func skipSpaces() {
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || (0x09...0x0d).contains(byte)
        }

        private static func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }

        private static func isMediaCharacter(_ byte: UInt8) -> Bool {
            isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
        }
    }
}
