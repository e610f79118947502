/// Reads JSON text a byte at a time and tells where its strings end and its arrays and objects
/// open and close: enough to bound the nesting, or to find where one text ends, before parsing.
struct JSONStructure {
    enum Step { case other, stringEnded, opened, closed }

    /// Arrays and objects open at this point.
    private(set) var depth = 0
    private var inString = false, escaped = false

    mutating func step(_ byte: UInt8) -> Step {
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                return .stringEnded
            }
            return .other
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            return .other
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            depth += 1
            return .opened
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            depth -= 1
            return .closed
        default:
            return .other
        }
    }
}
