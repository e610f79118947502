/// The most pixels camctl decodes of a picture it did not make itself (a photo to draw on, a
/// template's pictures, a background, a collected photo's thumbnail, the thumbnails a sheet lays
/// out): its size is read from its header and checked here before any decoder allocates it, so a
/// small file that declares a giant picture costs no memory.
public enum PictureBudget {
    /// The most pixels: 8192x8192, about 256 MB decoded as RGBA.
    public static let maximumPixels = PNGHeader.maximumPixels
    /// The longest side.
    public static let maximumSide = PNGHeader.maximumSide

    /// A picture over the budget, or one whose size cannot be read.
    public struct Refusal: Error, Sendable, Equatable {
        /// One sentence saying what the picture declares and what camctl takes.
        public let message: String
    }

    /// Checks a size against the budget (or `limit`, a smaller one, such as a thumbnail's).
    public static func check(width: Int, height: Int, limit: (pixels: Int, side: Int)? = nil) throws(Refusal) {
        let (pixels, side) = limit ?? (maximumPixels, maximumSide)
        guard width > 0, height > 0 else { throw Refusal(message: "the picture says it is \(width)x\(height) pixels, so it holds no picture; it is damaged") }
        guard width <= side, height <= side, width * height <= pixels else {
            throw Refusal(message: "the picture says it is \(width)x\(height) pixels, more than the \(megapixels(pixels)) megapixels "
                          + "(and \(side) pixels a side) camctl decodes of it")
        }
    }

    /// The size a JPEG or PNG declares, checked against the budget (or `limit`), before decoding.
    ///
    /// - Throws: when the picture is neither, or its size is not allowed.
    @discardableResult
    public static func check(_ picture: [UInt8], limit: (pixels: Int, side: Int)? = nil) throws(Refusal) -> (width: Int, height: Int) {
        let size: (width: Int, height: Int)
        if let jpeg = JPEGFile.dimensions(of: picture) {
            size = jpeg
        } else if let png = try? PNGHeader(parsing: picture) {
            size = (png.width, png.height)
        } else if case .tooLarge(let width, let height)? = Self.pngProblem(picture) {
            size = (width, height)
        } else {
            throw Refusal(message: "the picture is neither a JPEG nor a PNG whose size can be read")
        }
        try check(width: size.width, height: size.height, limit: limit)
        return size
    }

    private static func pngProblem(_ picture: [UInt8]) -> PNGHeader.Problem? {
        do {
            _ = try PNGHeader(parsing: picture)
            return nil
        } catch {
            return error
        }
    }

    private static func megapixels(_ pixels: Int) -> String {
        pixels >= 1_000_000 ? "\(pixels / 1_000_000)" : String(Double(pixels) / 1_000_000)
    }
}
