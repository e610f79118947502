/// A page of a library's photos, newest first, as `GET /api/photos` answers it: the records, the
/// page's place, and how many photos there are in all.
public struct PhotoPage: Codable, Sendable, Equatable {
    public var photos: [PhotoRecord]
    public var offset: Int
    public var limit: Int
    public var total: Int

    public init(photos: [PhotoRecord], offset: Int, limit: Int, total: Int) {
        (self.photos, self.offset, self.limit, self.total) = (photos, offset, limit, total)
    }
}
