import OperatorWire
import PhotoLibrary

extension LibraryPhoto {
    /// The record of a library photo or movie (`camctl library list --json`, the HTTP API).
    public var record: PhotoRecord {
        var record = PhotoRecord(kind: kind.rawValue, path: path, id: id, width: width, height: height, codec: codec,
                                 capturedAt: WireTime.iso(capturedAt), capturedAtMicroseconds: WireTime.microseconds(capturedAt),
                                 device: device, bytes: byteCount, orientation: orientation, thumbnailPath: thumbnailPath,
                                 state: isProcessing ? "processing" : "final")
        (record.albums, record.duration, record.rawPath) = (albums, duration, rawPath)
        if isComposed { record.composed = true }
        return record
    }
}
