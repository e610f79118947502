import FoundationEssentials
import ImageMetadata
import FileSystem
import Glibc

/// A photo or movie kept in the library, as its index records it.
public struct LibraryPhoto: Sendable, Equatable {
    /// What a library item is.
    public enum Kind: String, Sendable, Equatable {
        case photo, movie
    }

    /// The photo's number in the library, never reused.
    public let id: Int64
    /// The photo file.
    public let path: String
    /// Its thumbnail (JPEG), when it has one.
    public let thumbnailPath: String?
    /// When it was taken.
    public let capturedAt: Date
    /// The camera's name.
    public let device: String
    /// Size in pixels.
    public let width: Int
    public let height: Int
    /// `jpeg` or `hevc` for a photo, `h264` for a movie.
    public let codec: String
    /// The EXIF orientation, 1 to 8.
    public let orientation: Int
    /// The file's size in bytes.
    public let byteCount: Int
    /// The albums the photo is in.
    public let albums: [String]
    /// Whether the photo's final file is still to be made from its spooled frame; meanwhile its
    /// file is a proxy (a JPEG of the same picture).
    public let isProcessing: Bool
    /// A photo, or a movie (an MP4 file, or an animated GIF, its thumbnail its first frame).
    public let kind: Kind
    /// A movie's length in seconds; `nil` for a photo.
    public let duration: Double?
    /// Whether it was made of other photos of the library (a booth's picture of its shots).
    public let isComposed: Bool
    /// The RAW file the camera wrote beside the photo (a DSLR set to RAW+JPEG), when kept.
    public let rawPath: String?

    /// The file's media type: `image/jpeg`, `image/heic`, `video/mp4` or `image/gif`.
    public var mediaType: String {
        codec == "gif" ? "image/gif" : kind == .movie ? "video/mp4" : codec == "hevc" ? "image/heic" : "image/jpeg"
    }

    /// The photo file's name in the library folder.
    public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The thumbnail's name in the library's `thumbnails/` folder.
    var thumbnailName: String? { thumbnailPath.flatMap { $0.split(separator: "/").last.map(String.init) } }
}

/// A photo (or a short movie made whole in memory, such as a booth's clip) to add to the library:
/// the encoded file and what is known about it.
public struct NewPhoto: Sendable {
    public var data: [UInt8]
    /// The thumbnail as JPEG data; empty for none.
    public var thumbnail: [UInt8]
    /// `jpeg` or `hevc`.
    public var codec: String
    public var width: Int
    public var height: Int
    public var orientation: Int
    public var capturedAt: Date
    public var device: String
    public var albums: [String]
    /// Where the photo came from, when it is a copy of one kept elsewhere (another library's
    /// photo): a name the library keeps once, so the same photo is never added twice.
    public var origin: String?
    /// What the final file is made from later, when ``data`` is a proxy: kept in the library's
    /// spool until ``PhotoLibrary/finish(id:data:codec:)``, and the photo is processing meanwhile.
    public var pending: (any FileContents)?
    /// A movie's length in seconds, when ``data`` is an MP4 movie (codec `h264`); `nil` for a photo.
    public var duration: Double?
    /// The library's photos this picture was made from (a booth's shots).
    public var parts: [Int64]
    /// The RAW file the camera wrote beside the photo, kept with it in the library.
    public var raw: RawFile?

    public init(data: [UInt8], thumbnail: [UInt8] = [], codec: String, width: Int, height: Int, orientation: Int = 1,
                capturedAt: Date, device: String, albums: [String] = [], origin: String? = nil, pending: (any FileContents)? = nil,
                duration: Double? = nil, parts: [Int64] = [], raw: RawFile? = nil) {
        self.data = data
        self.thumbnail = thumbnail
        self.codec = codec
        self.width = width
        self.height = height
        self.orientation = orientation
        self.capturedAt = capturedAt
        self.device = device
        self.albums = albums
        self.origin = origin
        self.pending = pending
        self.duration = duration
        self.parts = parts
        self.raw = raw
    }

    /// The file name extension for the codec.
    var fileExtension: String { codec == "gif" ? "gif" : duration != nil ? "mp4" : codec == "hevc" ? "heic" : "jpg" }
}

/// A RAW file a camera wrote beside a JPEG photo: its bytes as the camera wrote them, and its kind
/// (one of `RawFileKind.extensions`, lower case: `nef`, `cr3`, …).
public struct RawFile: Sendable, Equatable {
    /// The file's bytes, as the camera wrote them.
    public var data: [UInt8]
    /// Its kind, lower case (`nef`): the extension it is kept under.
    public var fileExtension: String

    /// The RAW file named `name` on the camera's card (`DSC_0001.NEF`); `nil` when its kind is
    /// none the library keeps.
    public init?(data: [UInt8], cameraName name: String) {
        guard let kind = RawFileKind.of(name) else { return nil }
        (self.data, self.fileExtension) = (data, kind)
    }
}
