/// How a printer is sent a picture: as it is, when it takes the picture's format, or as one page
/// of pixels in a raster it takes (what IPP Everywhere and AirPrint printers are required to take).
public enum PictureForm: Sendable, Equatable {
    case asIs
    case raster(RasterForm)
}

/// A page of pixels a printer takes: its raster, paper, resolution and colour.
public struct RasterForm: Sendable, Equatable {
    /// PWG raster (`image/pwg-raster`, IPP Everywhere) or Apple raster (`image/urf`, AirPrint).
    public enum Encoding: String, Sendable {
        case pwg = "image/pwg-raster"
        case apple = "image/urf"
    }

    public let encoding: Encoding
    /// The paper, by its PWG name.
    public let media: String
    /// Dots an inch, across and down.
    public let resolution: Int
    /// Whether the page is printed in colour (sRGB), else in grey.
    public let isColor: Bool
    /// The page's size in pixels at that resolution.
    public let width: Int
    public let height: Int

    /// The raster type libcups writes the page's pixels as.
    var type: String { isColor ? "srgb_8" : "sgray_8" }

    /// The resolution camctl prints photos at when the printer offers it: a photo printer's.
    static let preferredResolution = 300

    /// The most pixels a page is made of: an A3 sheet at 300 dots an inch (17 million) fits; a
    /// page several times larger would take gigabytes to lay out.
    static let largestPage = 20_000_000

    /// The resolution to print a `width`x`length` paper (in hundredths of a millimetre) at among
    /// those offered: 300 dots an inch when offered, else the nearest above it, else the finest
    /// below; and always one whose page is at most ``largestPage`` pixels, else `nil`.
    static func resolution(among offered: [Int], paper width: Int, _ length: Int) -> Int? {
        let fitting = offered.filter { $0 > 0 && (width * $0 / 2540) * (length * $0 / 2540) <= largestPage }
        return fitting.filter { $0 >= preferredResolution }.min() ?? fitting.max()
    }

    /// The resolutions an Apple raster printer offers, from its `urf-supported` keywords
    /// (`RS300-600`); empty when it names none.
    static func appleResolutions(_ keywords: [String]) -> [Int] {
        keywords.first { $0.hasPrefix("RS") }.map { $0.dropFirst(2).split(separator: "-").compactMap { Int($0) } } ?? []
    }
}
