// libFuzzer entry for the HEIF reader: every input must be read or refused with a HEIFError,
// never crash, hang or touch memory it does not own. Built and run by Fuzz/run heif.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let contents = try HEIFContents(parsing: bytes)
        _ = contents.displaySize
        _ = contents.thumbnail
        for item in contents.items { precondition(item.dataLength >= 0, "a negative data length") }
    } catch {
        precondition(!error.message.isEmpty, "an error without words")
    }
    return 0
}
