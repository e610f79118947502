import Glibc

extension String {
    /// `arguments` laid out as C's printf lays them out by `format` (`%.3f`, `%+.1f`, `%g`,
    /// `%08x`, `%d`), with a `.` decimal point whatever the locale.
    ///
    /// Integers are passed as `Int` with `l` in the conversion (`%ld`, `%08lx`) or as `Int32`.
    public init(printf format: String, _ arguments: CVarArg...) {
        let length = withVaList(arguments) { vsnprintf(nil, 0, format, $0) }
        guard length > 0 else {
            self = ""
            return
        }
        var bytes = [CChar](repeating: 0, count: Int(length) + 1)
        _ = withVaList(arguments) { vsnprintf(&bytes, bytes.count, format, $0) }
        self = String(decoding: bytes.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
