import FoundationEssentials
import MailClient
import OperatorWire
import PhotoLibrary
import Synchronization

/// The server's mail (`serve --mail-server`): a library picture e-mailed to the address a guest
/// types on its page, through the owner's SMTP server. At most ``perPicture`` messages of one
/// picture and ``perHour`` in all an hour, so a page cannot be made to send mail in bulk; the
/// address is used for the one message and kept nowhere.
final class MailDesk: Sendable {
    let server: MailServer
    /// The moments messages were sent, by picture, for the limits; older than an hour, forgotten.
    private let sent = Mutex<[Int64: [ContinuousClock.Instant]]>([:])

    /// The most messages of one picture an hour, and of all pictures.
    static let perPicture = 3
    static let perHour = 60
    /// The largest picture or clip sent, in bytes: most mail servers refuse more than 25 MB, and base64 adds a third.
    static let largest = 15 << 20

    init(_ server: MailServer) {
        self.server = server
    }

    /// Checks a guest's request before anything is read: the address, the picture's size, and
    /// the limits, counting the message; the address as a recipient.
    ///
    /// - Throws: ``APIError``: 400 for an address that is not one, 413 for a picture too large,
    ///   429 past a limit.
    func admit(_ address: String, for photo: LibraryPhoto) throws(APIError) -> MailAddress {
        guard let recipient = MailAddress(address) else {
            throw APIError.badRequest("that is not an e-mail address; type it as name@example.com")
        }
        guard photo.byteCount <= Self.largest else {
            throw APIError(413, "this picture is too large to e-mail; download it instead")
        }
        try count(photo.id)
        return recipient
    }

    /// Sends `picture` (of photo `photo`, in `mediaType`) to `recipient`, admitted before.
    ///
    /// - Throws: ``APIError``: 413 for a picture too large, 502 when the server does not take the message.
    func mail(_ picture: [UInt8], mediaType: String, of photo: LibraryPhoto, to recipient: MailAddress) async throws(APIError) -> OutcomeRecord {
        guard picture.count <= Self.largest else {
            throw APIError(413, "this picture is too large to e-mail; download it instead")
        }
        let kind = photo.kind == .movie ? "clip" : "photo"
        let message = MailMessage(from: server.from, to: recipient, subject: "Your \(kind) from the booth",
                                  text: "Here is your \(kind) from the booth.\r\n\r\nSent by camctl; your address was used for this message alone.",
                                  attachment: picture, mediaType: mediaType,
                                  fileName: "camctl-\(photo.id).\(Self.fileExtension(of: mediaType))")
        do {
            try await server.send(message)
        } catch {
            throw APIError(502, "the \(kind) could not be e-mailed (\(error.message)); try again later, or download it")
        }
        return .mailed
    }

    /// Counts a message of picture `id` when the limits allow one more within the hour.
    private func count(_ id: Int64) throws(APIError) {
        let now = ContinuousClock.now
        let refusal: String? = sent.withLock { sent in
            for (picture, moments) in sent {
                let recent = moments.filter { now - $0 < .seconds(3600) }
                sent[picture] = recent.isEmpty ? nil : recent
            }
            if sent[id, default: []].count >= Self.perPicture {
                return "this picture was e-mailed \(Self.perPicture) times in the last hour; download it instead"
            }
            if sent.values.reduce(0, { $0 + $1.count }) >= Self.perHour {
                return "this booth has sent all the mail it sends in an hour; download the picture instead"
            }
            sent[id, default: []].append(now)
            return nil
        }
        if let refusal { throw APIError(429, refusal) }
    }

    private static func fileExtension(of mediaType: String) -> String {
        ["image/jpeg": "jpg", "image/gif": "gif", "video/mp4": "mp4", "image/heic": "heic"][mediaType] ?? "bin"
    }
}
