import Synchronization

/// The newest snapshot encoded (or being encoded), known by the frame and quality it is of:
/// requests for the same frame at the same quality share one encode, whether they come while it
/// runs or after it ended, so any number of clients asking for the held frame within a frame
/// interval cost one encode. Only one is kept; an encode that fails is forgotten, so the next
/// request tries again.
final class RecentSnapshot: Sendable {
    /// What a snapshot is of: a frame's number in the feed, the JPEG quality, and the width it is
    /// brought down to (`nil`: the frame's own).
    struct Key: Equatable, Sendable {
        let frame: UInt64
        let quality: Int
        let width: Int?
    }

    private let newest = Mutex<(key: Key, encoding: Task<[UInt8], any Error>)?>(nil)

    /// The snapshot of `key`, encoded by `encode` unless it is already, or being.
    func snapshot(of key: Key, encode: @escaping @Sendable () async throws(CaptureError) -> [UInt8]) async throws(CaptureError) -> [UInt8] {
        let encoding = newest.withLock { newest in
            if let newest, newest.key == key { return newest.encoding }
            let task = Task<[UInt8], any Error> { try await encode() }
            newest = (key, task)
            return task
        }
        do {
            return try await encoding.value
        } catch {
            newest.withLock { newest in
                if newest?.key == key { newest = nil }
            }
            throw CaptureError.converting(error, context: "the snapshot could not be encoded")
        }
    }

    /// Forgets the snapshot kept (its bytes are freed).
    func forget() {
        newest.withLock { $0 = nil }
    }
}
