import FoundationEssentials
import Glibc
import OperatorWire
import PhotoLibrary

/// A photo a node of a fleet keeps, as it lists it for a controller: where to download it and
/// what the download must be. Every field is checked, as it comes from another machine.
public struct FleetPhoto: Sendable, Equatable {
    /// The node that keeps it, and its number in the node's library.
    public let node: String
    public let id: Int64
    /// The file's name in the node's library (`20261201-101502.250-k3f9x2.jpg`).
    public let fileName: String
    /// Where the file and its thumbnail are downloaded from.
    public let url: String
    public let thumbnailURL: String?
    /// The file's SHA-256, 64 lowercase hex digits, and its size.
    public let sha256: String
    public let byteCount: Int
    /// The instant its frame was captured.
    public let capturedAt: Date
    /// `jpeg` or `hevc`, the size in pixels, the EXIF orientation, the camera's name.
    public let codec: String
    public let width: Int
    public let height: Int
    public let orientation: Int
    public let device: String

    /// The largest photo file a node may report.
    public static let maximumBytes = 1 << 30

    /// The photo a listing's record describes, or `nil` when any field is missing or out of range.
    public init?(record: PhotoRecord, node: String) {
        guard FleetPhoto.isPlainName(node), record.id.map({ $0 >= 1 }) == true, let id = record.id,
              let fileName = record.path.split(separator: "/").last.map(String.init), Self.isPhotoFileName(fileName),
              let url = record.url, Self.isWebAddress(url),
              let sha256 = record.sha256, Self.isSHA256(sha256),
              (1...Self.maximumBytes).contains(record.bytes),
              (0...Int64(Self.latestMicroseconds)).contains(record.capturedAtMicroseconds),
              ["jpeg", "hevc"].contains(record.codec),
              (1...65535).contains(record.width), (1...65535).contains(record.height), (1...8).contains(record.orientation),
              record.device.utf8.count <= 256,
              record.thumbnailURL.map(Self.isWebAddress) ?? true
        else { return nil }
        (self.node, self.id, self.fileName, self.url, self.thumbnailURL) = (node, id, fileName, url, record.thumbnailURL)
        (self.sha256, self.byteCount) = (sha256, record.bytes)
        capturedAt = Date(timeIntervalSince1970: Double(record.capturedAtMicroseconds) / 1e6)
        (self.codec, self.width, self.height, self.orientation, self.device) = (record.codec, record.width, record.height, record.orientation, record.device)
    }

    /// The latest capture time a node may report, in microseconds since 1970 (the year 2100).
    static let latestMicroseconds: Double = 4_102_444_800_000_000

    /// Whether a file name is a library photo's: `20261201-101502.250-k3f9x2.jpg` (or `.heic`).
    static func isPhotoFileName(_ name: String) -> Bool {
        PhotoLibrary.isLibraryName(name, extensions: ["jpg", "heic"])
    }

    /// Whether a text is a SHA-256 in lowercase hexadecimal.
    static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0) }
    }

    /// Whether a node's name can name a folder: not empty, no `/`, not hidden, at most 128 bytes.
    public static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 128 && !name.contains("/") && !name.hasPrefix(".") && !name.contains("\0")
    }

    static func isWebAddress(_ text: String) -> Bool {
        (text.hasPrefix("http://") || text.hasPrefix("https://")) && text.utf8.count <= 2048
            && !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true })
    }
}
