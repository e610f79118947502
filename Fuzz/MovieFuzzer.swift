// libFuzzer entry for the MP4 movie reader: every input must be read or refused with a
// HEIFError, never crash, hang or read past its bytes. Built and run by Fuzz/run movie.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMovie(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let movie = try MovieFile(data: bytes)
        precondition(movie.wholeLength <= size && movie.frameCount >= 0 && movie.duration >= 0, "a movie outside its bytes")
    } catch {
        precondition(!error.message.isEmpty, "an error without words")
    }
    return 0
}
