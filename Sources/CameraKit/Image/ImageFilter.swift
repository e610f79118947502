/// A named look for the picture, as a phone's camera offers them; ``ImageSettings/filters``
/// chains them.
///
/// The tones (mono to cool) are table lookups on the camera's YUV frames, done in place; the
/// colour effects (heat to yellowblue) are GStreamer's `coloreffects` presets, which work on RGB.
public enum ImageFilter: String, Sendable, Equatable, CaseIterable {
    case none
    case mono
    case noir
    case sepia
    case chrome
    case fade
    case invert
    case warm
    case cool
    case heat
    case xray
    case xpro
    case yellowblue

    /// What the filter does, in a few words.
    public var summary: String {
        switch self {
        case .none: "the picture as the camera gives it"
        case .mono: "black and white"
        case .noir: "black and white with strong contrast"
        case .sepia: "brown-toned black and white, like an old print"
        case .chrome: "richer colours and more contrast"
        case .fade: "softer, paler colours with lifted blacks"
        case .invert: "a negative: dark is light, colours turned to their opposites"
        case .warm: "shifted toward orange"
        case .cool: "shifted toward blue"
        case .heat: "a thermal camera's false colours (GStreamer's coloreffects)"
        case .xray: "inverted and tinted blue (GStreamer's coloreffects)"
        case .xpro: "cross-processed film colours (GStreamer's coloreffects)"
        case .yellowblue: "yellow lights and blue shadows (GStreamer's coloreffects)"
        }
    }

    /// How the filter is made.
    enum Implementation {
        /// A change of each pixel's luma and of its chroma, independently.
        case tone(Tone)
        /// A `coloreffects` preset.
        case colorEffect(String)
    }

    var implementation: Implementation {
        switch self {
        case .none: .tone(.identity)
        case .mono: .tone(Tone(chroma: { _, _ in (0, 0) }))
        case .noir: .tone(Tone(luma: { ($0 - 0.5) * 1.6 + 0.46 }, chroma: { _, _ in (0, 0) }))
        case .sepia: .tone(Tone(luma: { 0.04 + $0 * 0.9 }, chroma: { _, _ in (-0.07, 0.06) }))
        case .chrome: .tone(Tone(luma: { ($0 - 0.5) * 1.15 + 0.5 }, chroma: { ($0 * 1.3, $1 * 1.3) }))
        case .fade: .tone(Tone(luma: { 0.08 + $0 * 0.84 }, chroma: { ($0 * 0.6, $1 * 0.6) }))
        case .invert: .tone(Tone(luma: { 1 - $0 }, chroma: { (-$0, -$1) }))
        case .warm: .tone(Tone(chroma: { ($0 - 0.04, $1 + 0.04) }))
        case .cool: .tone(Tone(chroma: { ($0 + 0.04, $1 - 0.03) }))
        case .heat, .xray, .xpro, .yellowblue: .colorEffect(rawValue)
        }
    }
}

/// A filter that changes luma and chroma separately: luma from 0 (black) to 1 (white), chroma
/// (Cb, Cr) from -0.5 to 0.5 with 0 for grey.
struct Tone: Sendable {
    let luma: @Sendable (Double) -> Double
    let chroma: @Sendable (Double, Double) -> (Double, Double)

    init(luma: @escaping @Sendable (Double) -> Double = { $0 },
         chroma: @escaping @Sendable (Double, Double) -> (Double, Double) = { ($0, $1) }) {
        self.luma = luma
        self.chroma = chroma
    }

    static let identity = Tone()

    /// This tone, then `next`.
    func followed(by next: Tone) -> Tone {
        Tone(luma: { next.luma(luma($0)) }, chroma: { cb, cr in
            let (first, second) = chroma(cb, cr)
            return next.chroma(first, second)
        })
    }
}
