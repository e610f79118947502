// libFuzzer entry for JSON texts one after another (what `pw-dump` prints): every input must be
// read or refused with a JSONError, never crash or hang, and what is read must read back the same
// once written. Built and run by Fuzz/run json.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let values = try JSONValue.sequence(parsing: bytes)
        let written = values.flatMap { value -> [UInt8] in value.text() + [0x0A] }
        precondition((try? JSONValue.sequence(parsing: written)) == values, "what was read does not read back the same")
    } catch {
        precondition(!error.reason.isEmpty, "an error without words")
    }
    return 0
}
