import Checksums
import OperatorWire

/// Download links for guests: `/p/ID-TAG`, where the tag is an HMAC of the photo's id under the
/// library's guest key, so a link cannot be guessed, reaches its one photo only, and needs no token.
public struct GuestLinks: Sendable {
    private let key: [UInt8]

    /// Links under the key kept in `folder` (the library's, as `guest-key`).
    public init(folder: String) throws(TokenFileError) {
        let hex = Array(try SecretFile.secret(named: "guest-key", in: folder).hex.utf8)
        key = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16) ?? 0 }
    }

    /// The path of a photo's link.
    public func path(for id: Int64) -> String {
        "/p/\(id)-\(tag(for: id))"
    }

    /// The photo a link's last part (`ID-TAG`) names, when its tag is right.
    public func photo(named part: String) -> Int64? {
        let pieces = part.split(separator: "-", maxSplits: 1)
        guard pieces.count == 2, let id = Int64(pieces[0]), id > 0 else { return nil }
        return HMAC.matches(pieces[1], tag(for: id)) ? id : nil
    }

    /// A record with its photo's link added (`guest_link`), when it has an id.
    public func annotated(_ record: PhotoRecord) -> PhotoRecord {
        guard let id = record.id else { return record }
        var record = record
        record.guestLink = path(for: id)
        return record
    }

    /// The path of the live picture's tile (``Router``'s `/tile/TAG.jpg`): as a photo's link, it
    /// needs no token and cannot be guessed; it is handed to the fleet's controller in the
    /// node's status, for its rig page.
    public var tilePath: String {
        "/tile/\(HMAC.sha256(key: key, message: Array("camctl tile".utf8)).prefix(16).hexDigits).jpg"
    }

    /// Whether `path` is the tile's path.
    public func isTile(_ path: String) -> Bool {
        HMAC.matches(path, tilePath)
    }

    /// 128 bits of the HMAC of the id, as hex.
    private func tag(for id: Int64) -> String {
        HMAC.sha256(key: key, message: Array("camctl photo \(id)".utf8)).prefix(16).hexDigits
    }
}
