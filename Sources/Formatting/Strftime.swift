import Glibc

extension String {
    /// The local time `secondsSince1970` as C's strftime lays it out by `format` (`%Y-%m-%d
    /// %H:%M:%S`, `%A %e %B`), in the C library's local time zone and the C locale's words; and,
    /// as GNU date writes them, `%3N` for the second's thousandths (`%1N` to `%9N` for that many
    /// digits, `%N` for nine). Empty when the result would be longer than `limit` bytes.
    public init(strftime format: String, secondsSince1970: Double, limit: Int = 512) {
        let whole = secondsSince1970.rounded(.down)
        var seconds = time_t(whole)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let expanded = Self.fractionExpanded(format, fraction: secondsSince1970 - whole)
        var bytes = [CChar](repeating: 0, count: limit + 1)
        let length = Glibc.strftime(&bytes, bytes.count, expanded, &parts)
        self = String(decoding: bytes.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `format` with each `%N` or `%DN` replaced by the first D (or nine) digits of `fraction`,
    /// and every other conversion (`%%` too) left for strftime.
    private static func fractionExpanded(_ format: String, fraction: Double) -> String {
        guard format.contains("N") else { return format }
        let nanoseconds = Swift.min(999_999_999, Swift.max(0, Int(fraction * 1e9)))
        let nine = String(repeating: "0", count: 9 - String(nanoseconds).count) + String(nanoseconds)
        var result = "", characters = Array(format), index = 0
        while index < characters.count {
            guard characters[index] == "%", index + 1 < characters.count else {
                result.append(characters[index])
                index += 1
                continue
            }
            let next = characters[index + 1]
            if next == "N" {
                result += nine
                index += 2
            } else if let digits = next.wholeNumberValue, (1...9).contains(digits), index + 2 < characters.count, characters[index + 2] == "N" {
                result += nine.prefix(digits)
                index += 3
            } else {
                result += "%" + String(next)
                index += 2
            }
        }
        return result
    }
}
