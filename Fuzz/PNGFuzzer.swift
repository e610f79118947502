// libFuzzer entry for the PNG header and chunk checks: every input must be accepted within the
// limits or refused, never crash, hang or touch memory it does not own. Built and run by Fuzz/run png.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for header in [try? PNGHeader(parsing: bytes), try? PNGHeader.checkingChunks(of: bytes)] {
        guard let header else { continue }
        precondition(header.width >= 1 && header.height >= 1 && header.width * header.height <= PNGHeader.maximumPixels,
                     "a picture past the limits was accepted")
    }
    return 0
}
