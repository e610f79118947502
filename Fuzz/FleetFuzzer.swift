// libFuzzer entry point for what a fleet's controller reads from other machines: a node's listing
// of its photos, each record checked field by field (FleetPhoto). Built by Fuzz/run with the JSON
// reader and the record's checks compiled in.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFleetRecords(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONValue(parsing: bytes) else { return 0 }
    let records = value.object?["photos"]?.array?.compactMap(\.object) ?? value.object.map { [$0] } ?? []
    for record in records {
        if let photo = FleetPhoto(record: record, node: "node") {
            // Whatever passed is within its documented ranges.
            precondition(photo.id > 0 && (1...FleetPhoto.maximumBytes).contains(photo.byteCount) && photo.sha256.utf8.count == 64)
            precondition(FleetPhoto.isPhotoFileName(photo.fileName) && photo.width > 0 && photo.height > 0)
        }
    }
    return 0
}
