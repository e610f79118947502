import Formatting
import FoundationEssentials

/// A message with one attachment, as SMTP carries it: headers, a line of text, and the file in
/// base64, every line ending in CR LF. Nothing a guest typed goes into it but the checked address.
public struct MailMessage: Sendable {
    public let from: MailAddress
    public let to: MailAddress
    public let subject: String
    public let text: String
    /// The attachment: its bytes, media type and file name (`camctl-12.jpg`).
    public let attachment: [UInt8]
    public let mediaType: String
    public let fileName: String

    /// A message; `subject`, `text`, `mediaType` and `fileName` are camctl's own words, never a guest's.
    public init(from: MailAddress, to: MailAddress, subject: String, text: String, attachment: [UInt8], mediaType: String, fileName: String) {
        (self.from, self.to, self.subject, self.text) = (from, to, subject, text)
        (self.attachment, self.mediaType, self.fileName) = (attachment, mediaType, fileName)
    }

    /// The message's bytes, dated `date`.
    public func bytes(date: Date = Date()) -> [UInt8] {
        let boundary = "camctl-" + UUID().uuidString
        let encoded = Data(attachment).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        let lines = [
            "From: \(from.text)",
            "To: \(to.text)",
            "Subject: \(subject)",
            "Date: \(String(strftime: "%a, %d %b %Y %H:%M:%S %z", secondsSince1970: date.timeIntervalSince1970))",
            "Message-ID: <\(UUID().uuidString)@camctl>",
            "MIME-Version: 1.0",
            "Content-Type: multipart/mixed; boundary=\"\(boundary)\"",
            "",
            "--\(boundary)",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: 8bit",
            "",
            text,
            "--\(boundary)",
            "Content-Type: \(mediaType); name=\"\(fileName)\"",
            "Content-Transfer-Encoding: base64",
            "Content-Disposition: attachment; filename=\"\(fileName)\"",
            "",
            encoded,
            "--\(boundary)--",
            "",
        ]
        return Array(lines.joined(separator: "\r\n").utf8)
    }
}
