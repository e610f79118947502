import Checksums
import OperatorWire

/// How each delivered photo is told, once, for every front end: as a `photo` event on the
/// operator's stream (``OperatorEvent/photo(_:)``), with its SHA-256 and download link where the
/// front end asks for them (a fleet node's controller collects by them), then to the front end's
/// own report (the command line prints it). Told on the delivery's lane, in the order photos were
/// written.
struct PhotoAnnouncement: Sendable {
    /// Whether each photo's record carries the SHA-256 of its bytes.
    let checksums: Bool
    /// Where photos are downloaded from (`http://host:port`): each record's `url` is its guest
    /// link's file there.
    let downloadBase: (@Sendable () -> String)?
    let tell: @Sendable (OperatorEvent) -> Void
    let report: (@Sendable (Delivered) throws -> Void)?

    /// Tells of `delivered`; what the report throws is thrown.
    func announce(_ delivered: Delivered) throws {
        var record = delivered.record
        if checksums { record.sha256 = SHA256.hash(delivered.item.data).hexDigits }
        if let downloadBase, let link = record.guestLink { record.url = downloadBase() + link + "/file" }
        tell(.photo(record))
        try report?(delivered)
    }
}
