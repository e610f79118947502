// libFuzzer entry for the JPEG and EXIF readers: every input must be read or refused, never
// crash, hang or touch memory it does not own. Built and run by Fuzz/run jpeg.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let (width, height) = JPEGFile.dimensions(of: bytes) {
        precondition(width >= 0 && height >= 0, "a negative size")
    }
    if let exif = JPEGFile.exifBlock(of: bytes) {
        if let orientation = JPEGFile.orientation(inExif: exif) { precondition((1...8).contains(orientation)) }
        // Embedding the block found again must give a file whose block is the same.
        if let rewritten = try? JPEGFile.embeddingExif(exif, in: bytes) {
            precondition(JPEGFile.exifBlock(of: rewritten) == exif, "an EXIF block changed on the way through")
        }
    }
    _ = JPEGFile.orientation(inExif: bytes)
    // Removing a thumbnail keeps the block's size and its orientation.
    let stripped = JPEGFile.removingThumbnail(fromExif: bytes)
    precondition(stripped.count == bytes.count, "removing a thumbnail changed the block's size")
    precondition(JPEGFile.orientation(inExif: stripped) == JPEGFile.orientation(inExif: bytes), "removing a thumbnail changed the orientation")
    return 0
}
