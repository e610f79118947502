/// An album of a library as `GET /api/albums` and `camctl library albums --json` give it: its
/// name and how many photos it holds.
public struct AlbumRecord: Codable, Sendable, Equatable {
    public var album: String
    public var photos: Int

    public init(album: String, photos: Int) {
        (self.album, self.photos) = (album, photos)
    }
}
