import GStreamer

/// Words drawn on every frame, as rendered by Pango (any language's letters): a caption (an
/// event's name), or a stamp (the time each frame was taken, laid out by a strftime format).
///
/// A stamp shows the frame's own moment, not the moment it was encoded or drawn: a movie's first
/// and last frames are stamped as far apart as the movie is long.
public struct TextMark: Sendable, Equatable {
    /// What the words are.
    public enum Content: Sendable, Equatable {
        /// The same words on every frame.
        case caption(String)
        /// Each frame's local time by a strftime format, such as `%Y-%m-%d %H:%M:%S`.
        case stamp(format: String)

        public var isStamp: Bool {
            if case .stamp = self { true } else { false }
        }
    }

    public var content: Content
    /// Where on the picture the words go.
    public var place: TextPlace
    /// The letters' size as a fraction of the picture's height, from 0.01 to 0.5.
    public var size = 0.05
    /// A font family Pango knows (`Sans`, `Serif`, `DejaVu Sans Mono`, `Noto Sans CJK JP`).
    public var font = "Sans"
    public var color = RGBColor(red: 255, green: 255, blue: 255)

    public var isStamp: Bool { content.isStamp }
    public var isCaption: Bool { !content.isStamp }

    public static let sizeRange = 0.01...0.5

    /// A caption at the bottom left or a stamp at the bottom right, unless told otherwise.
    public init(_ content: Content, place: TextPlace? = nil) {
        self.content = content
        if case .stamp = content { self.place = place ?? .bottomRight } else { self.place = place ?? .bottomLeft }
    }

    /// Throws ``CaptureError/Code/invalidSetting`` naming what cannot be drawn.
    public func validate() throws(CaptureError) {
        let (what, text) = switch content {
        case .caption(let text): ("caption", text)
        case .stamp(let format): ("stamp's format", format)
        }
        if let problem = DrawnText.problem(with: text) { throw CaptureError(.invalidSetting, "the \(what) \(problem)") }
        guard Self.sizeRange.contains(size) else {
            throw CaptureError(.invalidSetting, "a text size of \(size * 100)% is out of range; use 1 to 50 (percent of the picture's height)")
        }
        guard CompositionTemplate.isFontFamily(font) else {
            throw CaptureError(.invalidSetting, "\"\(font)\" is not a font family; name one such as Sans, Serif or \"DejaVu Sans Mono\"")
        }
    }

    /// The text on a frame made at `secondsSince1970`, as Pango markup (`&` and `<` escaped).
    func markup(at secondsSince1970: Double) -> String {
        switch content {
        case .caption(let caption): Self.escapedMarkup(caption)
        case .stamp(let format): Self.escapedMarkup(String(strftime: format, secondsSince1970: secondsSince1970))
        }
    }

    /// Text as Pango markup shows it as written: `&`, `<` and `>` escaped.
    static func escapedMarkup(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// GStreamer's `textoverlay` for these words on a picture `height` pixels high, named `name`:
    /// its place and colour. Its words and font are set by property once it is made
    /// (``setWords(of:pictureHeight:)``), never quoted into the description.
    func overlay(named name: String, pictureHeight height: Int) -> String {
        let margin = max(2, Self.pixels(size, of: height) / 3)
        return "textoverlay name=\(name) auto-resize=false color=\(color.argb) halignment=\(place.horizontal) valignment=\(place.vertical) "
            + "xpad=\(margin) ypad=\(margin) line-alignment=\(place.horizontal)"
    }

    /// Sets the words (a caption's; a stamp's are set as each frame passes) and the font of
    /// `overlay`, made by ``overlay(named:pictureHeight:)``.
    func setWords(of overlay: Element, pictureHeight height: Int) throws(GStreamerError) {
        if case .caption = content { try overlay.setProperty("text", markup(at: 0)) }
        try overlay.setProperty("font-desc", "\(font) \(Self.pixels(size, of: height))px")
    }

    /// The letters' size in pixels on a picture `height` pixels high.
    private static func pixels(_ size: Double, of height: Int) -> Int {
        max(8, Int((size * Double(height)).rounded()))
    }
}

/// Where words go on the picture: a corner, the middle of a side, or the centre.
public enum TextPlace: String, Sendable, CaseIterable {
    case topLeft = "top-left", top, topRight = "top-right"
    case left, center, right
    case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

    var horizontal: String {
        switch self {
        case .topLeft, .left, .bottomLeft: "left"
        case .top, .center, .bottom: "center"
        case .topRight, .right, .bottomRight: "right"
        }
    }

    var vertical: String {
        switch self {
        case .topLeft, .top, .topRight: "top"
        case .left, .center, .right: "center"
        case .bottomLeft, .bottom, .bottomRight: "bottom"
        }
    }
}
