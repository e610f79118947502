import Foundation
import MailClient
import Testing

@Suite("E-mail addresses and messages")
struct MailAddressTests {
    @Test("Addresses people type are taken; anything that could add a header or a recipient is not")
    func addresses() {
        for good in ["guest@example.org", "  first.last+booth@mail.example.co.uk ", "a_b-c@x-y.example", "o'neil@example.ie"] {
            #expect(MailAddress(good) != nil, "\(good)")
        }
        for bad in ["", "guest", "guest@", "@example.org", "guest@localhost", "guest@@example.org", "a@b@example.org",
                    "guest@example.org, other@example.org", "guest@example.org\r\nBcc: other@example.org", "guest@exam ple.org",
                    "<guest@example.org>", "guest.@example.org", ".guest@example.org", "gu..est@example.org", "guest@-example.org",
                    "guest@example..org", "gäst@example.org", "guest@example.org\u{0}", String(repeating: "a", count: 65) + "@example.org",
                    "guest@" + String(repeating: "a", count: 64) + ".org", String(repeating: "a", count: 60) + "@" + String(repeating: "b.", count: 100) + "org"] {
            #expect(MailAddress(bad) == nil, "\(bad)")
        }
    }

    @Test("Random and mutated addresses: whatever is taken is plain ASCII with one @ and no space, comma, bracket or line break")
    func fuzzed() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcXYZ019.@-_+,;<>\"' \r\n\t\u{7f}".utf8) + [0x00, 0xC3, 0xA9, 0xFF]
        for round in 0..<20_000 {
            var bytes = Array("guest.name@example.org".utf8)
            if round % 2 == 1 { bytes = (0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! } }
            for _ in 0..<Int.random(in: 0...5, using: &generator) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = alphabet.randomElement(using: &generator)!
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let address = MailAddress(text) else { continue }
            let kept = Array(address.text.utf8)
            #expect(kept.allSatisfy { $0 > 0x20 && $0 < 0x7F } && kept.filter { $0 == UInt8(ascii: "@") }.count == 1
                    && !kept.contains { ",;<>\"".utf8.contains($0) } && kept.count <= MailAddress.longest, "\(text.debugDescription)")
        }
    }

    @Test("A message carries one recipient, its attachment in base64 lines of at most 76 characters, every line ending in CR LF")
    func message() throws {
        let attachment = (0..<10_000).map { UInt8($0 % 251) }
        let message = MailMessage(from: try #require(MailAddress("booth@example.com")), to: try #require(MailAddress("guest@example.org")),
                                  subject: "Your photo from the booth", text: "Here it is.", attachment: attachment, mediaType: "image/jpeg",
                                  fileName: "camctl-1.jpg")
        let text = String(decoding: message.bytes(), as: UTF8.self)
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n") && !text.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        let lines = text.components(separatedBy: "\r\n")
        #expect(lines.filter { $0.hasPrefix("To: ") } == ["To: guest@example.org"])
        #expect(lines.allSatisfy { $0.utf8.count <= 998 })
        let start = try #require(lines.firstIndex { $0.hasPrefix("Content-Disposition: attachment") }) + 2
        let encoded = lines[start...].prefix { !$0.hasPrefix("--") }
        #expect(encoded.allSatisfy { $0.count <= 76 })
        #expect(Data(base64Encoded: encoded.joined()).map { [UInt8]($0) } == attachment)
    }
}
