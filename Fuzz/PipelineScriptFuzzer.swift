// libFuzzer entry for the description-file parser: every input must parse or be refused with
// errors, never crash, hang or touch memory it does not own. Built and run by Fuzz/run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let result = try Parser.parse(bytes, overrides: ["shots": "3"])
        _ = result.script.stepListing
    } catch {
        for problem in error.errors {
            precondition(problem.line >= 1 && problem.column >= 1 && !problem.message.isEmpty, "an error without a place or words")
            _ = problem.formatted(file: "fuzz.camctl")
        }
    }
    return 0
}
