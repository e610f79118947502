/// How shots are composed into one picture, as a booth prints it: the picture's size, what lies
/// under the shots (a colour or a picture), the places the shots go (slots of any size, turned by
/// any angle), pictures laid over them (a frame, a logo) and words (an event's name, the date).
///
/// Pictures are named relative to the template's folder, and never leave it.
public struct CompositionTemplate: Sendable, Equatable {
    /// The composed picture's size in pixels.
    public var width: Int
    public var height: Int
    /// What lies under the shots.
    public var background: Background
    /// Where each shot goes, in order: the first shot in the first slot.
    public var slots: [Slot]
    /// Pictures laid over the shots, in order (later ones on top).
    public var overlays: [Overlay]
    /// Words drawn over everything, in order.
    public var texts: [Text]

    public init(width: Int, height: Int, background: Background = .color(.white), slots: [Slot], overlays: [Overlay] = [],
                texts: [Text] = []) {
        (self.width, self.height, self.background, self.slots, self.overlays, self.texts) = (width, height, background, slots, overlays, texts)
    }

    /// A colour, or a picture cropped around its middle to the template's shape and scaled to its size.
    public enum Background: Sendable, Equatable {
        case color(RGBColor)
        case picture(String)
    }

    /// A shot's place: a rectangle, turned clockwise by `rotation` degrees around its centre.
    public struct Slot: Sendable, Equatable {
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int
        public var rotation: Double
        /// How a shot of another shape fills the slot.
        public var fit: Fit

        public init(x: Int, y: Int, width: Int, height: Int, rotation: Double = 0, fit: Fit = .cover) {
            (self.x, self.y, self.width, self.height, self.rotation, self.fit) = (x, y, width, height, rotation, fit)
        }

        /// The rectangle's centre.
        public var center: (x: Double, y: Double) { (Double(x) + Double(width) / 2, Double(y) + Double(height) / 2) }
    }

    /// `cover`: the shot cropped around its middle to the slot's shape, filling it; `contain`: the
    /// whole shot, the rest of the slot left as the background.
    public enum Fit: String, Sendable, Equatable, CaseIterable {
        case cover, contain
    }

    /// A picture (a PNG with transparency, or a JPEG) stretched over a rectangle.
    public struct Overlay: Sendable, Equatable {
        public var picture: String
        public var x: Int
        public var y: Int
        public var width: Int
        public var height: Int

        public init(picture: String, x: Int, y: Int, width: Int, height: Int) {
            (self.picture, self.x, self.y, self.width, self.height) = (picture, x, y, width, height)
        }
    }

    /// Words centred on a point: fixed words, or the moment of composing by a strftime format.
    public struct Text: Sendable, Equatable {
        public enum Content: Sendable, Equatable {
            case words(String)
            case date(format: String)
        }

        public var content: Content
        /// The point the words are centred on.
        public var x: Int
        public var y: Int
        /// The letters' size in pixels.
        public var size: Int
        /// A font family Pango knows.
        public var font: String
        public var color: RGBColor

        public init(_ content: Content, x: Int, y: Int, size: Int, font: String = "Sans", color: RGBColor = .black) {
            (self.content, self.x, self.y, self.size, self.font, self.color) = (content, x, y, size, font, color)
        }
    }

    /// The pictures it names, in the order they are drawn.
    public var pictures: [String] {
        var names: [String] = []
        if case .picture(let name) = background { names.append(name) }
        return names + overlays.map(\.picture)
    }
}

extension RGBColor {
    public static let white = RGBColor(red: 255, green: 255, blue: 255)
    public static let black = RGBColor(red: 0, green: 0, blue: 0)
}
