/// One format a video source offers: an encoding, a range of sizes, and frame rates.
///
/// A camera's caps become a list of these: `YUY2 1920x1080 at 5/1`, `image/jpeg 1920x1080 at 30/1`, …
public struct VideoCapability: Equatable, Sendable, CustomStringConvertible {
    /// The frame rates offered for a size.
    public enum FrameRates: Equatable, Sendable {
        /// A list of rates, as most cameras report.
        case discrete([Fraction])
        /// Any rate in a range.
        case range(ClosedRange<Fraction>)
        /// No rate given.
        case unspecified

        /// The highest rate offered, if any.
        public var maximum: Fraction? {
            switch self {
            case .discrete(let rates): rates.max()
            case .range(let range): range.upperBound
            case .unspecified: nil
            }
        }

        /// Whether `rate` is offered.
        public func contains(_ rate: Fraction) -> Bool {
            switch self {
            case .discrete(let rates): rates.contains(rate)
            case .range(let range): range.contains(rate)
            case .unspecified: true
            }
        }
    }

    /// The media type: `video/x-raw`, `image/jpeg`, `video/x-h264`, …
    public var mediaType: String
    /// The raw pixel format (`YUY2`, `NV12`), `nil` for compressed formats.
    public var pixelFormat: String?
    /// The widths offered (a single width for most cameras).
    public var widths: ClosedRange<Int>
    /// The heights offered.
    public var heights: ClosedRange<Int>
    /// The frame rates offered at these sizes.
    public var frameRates: FrameRates

    /// Makes a capability.
    public init(mediaType: String, pixelFormat: String?, widths: ClosedRange<Int>, heights: ClosedRange<Int>,
                frameRates: FrameRates) {
        self.mediaType = mediaType
        self.pixelFormat = pixelFormat
        self.widths = widths
        self.heights = heights
        self.frameRates = frameRates
    }

    /// Whether the frames are compressed (MJPEG, H.264) rather than raw pixels.
    public var isCompressed: Bool { mediaType != "video/x-raw" }

    /// `YUY2 1920x1080 @ 5/1`, `image/jpeg 1280x720 @ 30/1, 15/1`.
    public var description: String {
        let encoding = pixelFormat ?? mediaType
        let size = widths.count == 1 && heights.count == 1
            ? "\(widths.lowerBound)x\(heights.lowerBound)"
            : "\(widths.lowerBound)-\(widths.upperBound)x\(heights.lowerBound)-\(heights.upperBound)"
        let rates = switch frameRates {
        case .discrete(let rates): rates.sorted(by: >).map(\.description).joined(separator: ", ")
        case .range(let range): "\(range.lowerBound)-\(range.upperBound)"
        case .unspecified: "any"
        }
        return "\(encoding) \(size) @ \(rates)"
    }

    /// Expands caps into capabilities: one per pixel format and size, lists unfolded.
    public static func list(from caps: Caps) -> [VideoCapability] {
        caps.structures.flatMap(list(from:))
    }

    /// Expands one caps structure; structures without sizes are skipped.
    public static func list(from structure: Structure) -> [VideoCapability] {
        guard structure.name.hasPrefix("video/") || structure.name.hasPrefix("image/") else { return [] }
        let isRaw = structure.name == "video/x-raw"
        let formats: [String?] = isRaw ? (structure["format"]?.alternatives.compactMap(\.stringValue) ?? [nil]) : [nil]
        let widths = ranges(structure["width"])
        let heights = ranges(structure["height"])
        let rates = frameRates(structure["framerate"])
        var result: [VideoCapability] = []
        for format in formats {
            for (width, height) in zip(widths, heights) {
                result.append(VideoCapability(mediaType: structure.name, pixelFormat: format,
                                              widths: width, heights: height, frameRates: rates))
            }
        }
        return result
    }

    private static func ranges(_ value: Value?) -> [ClosedRange<Int>] {
        (value?.alternatives ?? []).compactMap { alternative in
            switch alternative {
            case .int(let size): size...size
            case .intRange(let range, _): range
            default: nil
            }
        }
    }

    private static func frameRates(_ value: Value?) -> FrameRates {
        guard let value else { return .unspecified }
        if case .fractionRange(let range) = value { return .range(range) }
        let rates = value.alternatives.compactMap(\.fractionValue)
        return rates.isEmpty ? .unspecified : .discrete(rates)
    }
}
