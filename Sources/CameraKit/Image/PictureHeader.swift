import ImageMetadata

/// A JPEG's or PNG's size read from its header (a PNG's chunks checked too) without decoding it,
/// within the limits every picture camctl is given keeps: ``PNGHeader/maximumPixels`` and
/// ``PNGHeader/maximumSide``.
enum PictureHeader {
    /// - Throws: ``CaptureError/Code/unreadableFile`` naming `what` (`the background x.png`) when
    ///   it is neither picture, is damaged, or is too large.
    static func size(of bytes: [UInt8], naming what: String) throws(CaptureError) -> (width: Int, height: Int) {
        let size: (width: Int, height: Int)
        if let jpeg = JPEGFile.dimensions(of: bytes) {
            size = jpeg
        } else {
            do {
                let header = try PNGHeader.checkingChunks(of: bytes)
                size = (header.width, header.height)
            } catch {
                switch error {
                case .notPNG: throw CaptureError(.unreadableFile, "\(what) is not a JPEG or PNG picture; save it as one")
                case .damaged(let damage): throw CaptureError(.unreadableFile, "\(what) is a damaged PNG: \(damage)")
                case .tooLarge(let width, let height): size = (width, height)
                }
            }
        }
        guard size.width > 0, size.height > 0, size.width <= PNGHeader.maximumSide, size.height <= PNGHeader.maximumSide,
              size.width * size.height <= PNGHeader.maximumPixels else {
            throw CaptureError(.unreadableFile, "\(what) is \(size.width)x\(size.height) pixels; a picture here has at least one and "
                + "at most \(PNGHeader.maximumPixels / 1_048_576) megapixels (\(PNGHeader.maximumSide) a side)")
        }
        return size
    }
}
