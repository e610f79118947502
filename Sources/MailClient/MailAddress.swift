import Formatting

/// An e-mail address as a guest types it, checked strictly before it goes anywhere near a message:
/// `local@domain.example`, in ASCII, with no space, angle bracket, comma or line break, so no
/// address can add a header or a recipient.
public struct MailAddress: Sendable, Equatable, CustomStringConvertible {
    /// The address as written.
    public let text: String
    public var description: String { text }

    /// The longest address taken, in bytes.
    public static let longest = 254

    /// `text` as an address, trimmed of the spaces around it; `nil` when it is not one.
    public init?(_ text: String) {
        let trimmed = text.trimmed()
        let bytes = Array(trimmed.utf8)
        guard (3...Self.longest).contains(bytes.count), bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              let at = bytes.firstIndex(of: UInt8(ascii: "@")), bytes.lastIndex(of: UInt8(ascii: "@")) == at else { return nil }
        let (local, domain) = (bytes[..<at], bytes[(at + 1)...])
        guard Self.isLocalPart(local), Self.isDomain(domain) else { return nil }
        self.text = trimmed
    }

    /// Letters, digits and the few marks addresses use, dots only between them, at most 64 bytes.
    private static func isLocalPart(_ bytes: ArraySlice<UInt8>) -> Bool {
        let marks = Set("!#$%&'*+/=?^_`{|}~-.".utf8)
        return (1...64).contains(bytes.count) && bytes.first != UInt8(ascii: ".") && bytes.last != UInt8(ascii: ".")
            && !zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") }
            && bytes.allSatisfy { isLetterOrDigit($0) || marks.contains($0) }
    }

    /// Two or more labels of letters, digits and inner hyphens, each at most 63 bytes.
    private static func isDomain(_ bytes: ArraySlice<UInt8>) -> Bool {
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != UInt8(ascii: "-") && label.last != UInt8(ascii: "-")
                && label.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") }
        }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
