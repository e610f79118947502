internal import CCups

/// Writes a page of pixels as PWG raster or Apple raster through libcups's raster writer, straight
/// into a document being sent to a printer.
enum RasterWriter {
    /// Writes `page` (packed RGB rows of `form`'s size) into the document open on `http`, in
    /// `form`'s raster, colour or grey; whether all of it was written.
    static func write(_ page: [UInt8], as form: RasterForm, through api: camctl_cups, to http: OpaquePointer) -> Bool {
        withUnsafePointer(to: api) { api in
            var document = camctl_cups_document(api: api, http: http)
            // libcups keeps the document's address until the writer is closed: one stable pointer for all of it.
            return withUnsafeMutablePointer(to: &document) { document in write(page, as: form, through: api, into: document) }
        }
    }

    private static func write(_ page: [UInt8], as form: RasterForm, through api: UnsafePointer<camctl_cups>,
                              into document: UnsafeMutablePointer<camctl_cups_document>) -> Bool {
        guard let raster = camctl_cups_raster_open(document, form.encoding == .apple ? 1 : 0) else { return false }
        defer { api.pointee.raster_close(raster) }
        guard let media = api.pointee.media_for_pwg(form.media) else { return false }
        var header = cups_page_header2_t()
        guard api.pointee.raster_init_pwg_header(&header, media, form.type, Int32(form.resolution), Int32(form.resolution), "one-sided", nil) != 0 else {
            return false
        }
        camctl_cups_raster_set_pages(&header, 1)
        let (width, height) = (Int(header.cupsWidth), Int(header.cupsHeight))
        guard width == form.width, height == form.height, api.pointee.raster_write_header(raster, &header) != 0 else { return false }
        var row = [UInt8](repeating: 0, count: Int(header.cupsBytesPerLine))
        guard row.count == width * (form.isColor ? 3 : 1) else { return false }
        for y in 0..<height {
            let start = y * width * 3
            if form.isColor {
                row.withUnsafeMutableBufferPointer { row in _ = row.update(fromContentsOf: page[start..<start + width * 3]) }
            } else {
                // sRGB to grey by the luma of BT.709's weights.
                for x in 0..<width {
                    let pixel = start + x * 3
                    row[x] = UInt8((54 * Int(page[pixel]) + 183 * Int(page[pixel + 1]) + 19 * Int(page[pixel + 2])) >> 8)
                }
            }
            guard api.pointee.raster_write_pixels(raster, &row, UInt32(row.count)) == UInt32(row.count) else { return false }
        }
        return true
    }
}
