// libFuzzer entry for the description-file parser: every input must parse or be refused with
// errors, never crash, hang or touch memory it does not own. Built and run by Fuzz/run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let result = try Parser.parse(bytes, overrides: ["shots": "3"], image: vocabulary)
        _ = result.script.stepListing
    } catch {
        for problem in error.errors {
            precondition(problem.line >= 1 && problem.column >= 1 && !problem.message.isEmpty, "an error without a place or words")
            _ = problem.formatted(file: "fuzz.camctl")
        }
    }
    return 0
}

/// Image words as camctl defines them, so they are fuzzed too.
private let vocabulary = ImageVocabulary(
    filters: ["none", "mono", "noir", "sepia", "chrome", "fade", "invert", "warm", "cool", "heat", "xray", "xpro", "yellowblue"],
    ranges: ["brightness": -1...1, "contrast": 0...2, "saturation": 0...2, "hue": -1...1, "zoom": 1...8])
