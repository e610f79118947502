internal import CHeif

/// A HEIF photo (HEIC) decoded by libheif: its primary picture as displayed (its rotation and
/// mirroring applied), as RGB rows, and its EXIF block.
public struct DecodedHEIF: Sendable {
    public let width: Int
    public let height: Int
    /// Three bytes a pixel, each row starting on a four-byte boundary (as GStreamer lays out RGB):
    /// `stride` bytes a row.
    public let rgb: [UInt8]
    public let stride: Int
    /// The EXIF block (TIFF data), when the file has one.
    public let exif: [UInt8]?
}

/// Decodes HEIF files through libheif, loaded when first used.
public enum HEIFDecoder {
    /// Whether `data` starts as a HEIF file does (an `ftyp` box of a HEIF brand).
    public static func isHEIF(_ data: [UInt8]) -> Bool {
        guard data.count >= 12, Array(data[4..<8]) == Array("ftyp".utf8) else { return false }
        let brand = String(decoding: data[8..<12], as: UTF8.self)
        return ["heic", "heix", "heim", "heis", "mif1", "msf1"].contains(brand)
    }

    /// The primary picture of a HEIF file, as displayed, when its declared size has at most
    /// `maximumPixels` pixels and no side longer than `maximumSide`: checked before a pixel is
    /// decoded, so a small file declaring a giant picture takes no memory for it.
    ///
    /// - Throws: ``HEIFDecodingError`` when libheif is not installed, the picture is larger than
    ///   allowed, or the file cannot be decoded.
    public static func decode(_ data: [UInt8], maximumPixels: Int, maximumSide: Int) throws(HEIFDecodingError) -> DecodedHEIF {
        guard let api = Heif.api else { throw HEIFDecodingError("reading HEIC photos needs libheif, which is not installed; install libheif1") }
        guard let context = api.context_alloc() else { throw HEIFDecodingError("libheif could not start") }
        defer { api.context_free(context) }
        // libheif reads the bytes in place: everything it does with them happens in here.
        let decoded = data.withUnsafeBytes { bytes in Result { () throws(HEIFDecodingError) -> DecodedHEIF in
            try check(api.read_from_memory(context, bytes.baseAddress, bytes.count, nil), "the HEIC file cannot be read")
            var handle: OpaquePointer?
            try check(api.primary_image_handle(context, &handle), "the HEIC file has no picture")
            guard let handle else { throw HEIFDecodingError("the HEIC file has no picture") }
            defer { api.handle_release(handle) }
            let (declaredWidth, declaredHeight) = (Int(api.handle_width(handle)), Int(api.handle_height(handle)))
            guard declaredWidth <= maximumSide, declaredHeight <= maximumSide, declaredWidth * declaredHeight <= maximumPixels else {
                throw HEIFDecodingError("the HEIC picture says it is \(declaredWidth)x\(declaredHeight) pixels, more than the \(maximumPixels / 1_000_000) megapixels (and \(maximumSide) a side) camctl decodes")
            }
            var image: OpaquePointer?
            try check(api.decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil), "the HEIC picture cannot be decoded")
            guard let image else { throw HEIFDecodingError("the HEIC picture cannot be decoded") }
            defer { api.image_release(image) }
            let (width, height) = (Int(api.image_width(image)), Int(api.image_height(image)))
            var planeStride: Int32 = 0
            let row = width * 3, stride = (row + 3) / 4 * 4
            guard width > 0, height > 0, let plane = api.plane(image, heif_channel_interleaved, &planeStride), Int(planeStride) >= row else {
                throw HEIFDecodingError("the HEIC picture decodes to no pixels")
            }
            // Copied once, straight into GStreamer's row layout.
            let rgb = [UInt8](unsafeUninitializedCapacity: stride * height) { buffer, count in
                for line in 0..<height {
                    let target = buffer.baseAddress! + line * stride
                    (target).initialize(from: plane + line * Int(planeStride), count: row)
                    (target + row).initialize(repeating: 0, count: stride - row)
                }
                count = stride * height
            }
            return DecodedHEIF(width: width, height: height, rgb: rgb, stride: stride, exif: exif(of: handle, api: api))
        } }
        return try decoded.get()
    }

    /// The TIFF data of the picture's EXIF block: libheif's block starts with the offset of the
    /// TIFF header after its own four bytes.
    private static func exif(of handle: OpaquePointer, api: camctl_heif) -> [UInt8]? {
        var id: heif_item_id = 0
        guard api.metadata_block_ids(handle, "Exif", &id, 1) == 1 else { return nil }
        let size = api.metadata_size(handle, id)
        guard size > 4, size < 1 << 20 else { return nil }
        var block = [UInt8](repeating: 0, count: size)
        guard api.metadata(handle, id, &block).code == heif_error_Ok else { return nil }
        let offset = block[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard offset <= size - 4 - 8 else { return nil }
        return Array(block[(4 + offset)...])
    }

    private static func check(_ error: heif_error, _ what: String) throws(HEIFDecodingError) {
        guard error.code != heif_error_Ok else { return }
        let reason = error.message.map { String(cString: $0) } ?? "no reason given"
        throw HEIFDecodingError("\(what): \(reason)")
    }
}

/// Why a HEIF file was not decoded, in one sentence.
public struct HEIFDecodingError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}

/// libheif, loaded on first use.
private enum Heif {
    static let api: camctl_heif? = {
        var api = camctl_heif()
        return camctl_heif_load(&api) != 0 ? api : nil
    }()
}
