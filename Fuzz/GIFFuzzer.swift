// libFuzzer entry for the GIF reader: every input must be read or refused with a
// GIFFile.Malformed, never crash, hang or read past its bytes. Built and run by Fuzz/run gif.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let gif = try GIFFile(parsing: bytes)
        precondition(gif.frameCount > 0 && gif.duration >= 0 && gif.width >= 0 && gif.height >= 0, "a GIF read wrong")
    } catch {
        precondition(!error.reason.isEmpty, "an error without words")
    }
    return 0
}
