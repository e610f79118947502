import CameraKit
import FoundationEssentials
import Glibc
import OperatorWire
import PhotoLibrary

/// A picture to deliver: a photo, or a composed picture (a booth's strip or grid).
public struct DeliveryItem: Sendable {
    /// The picture's file; empty once it is only remembered (``withoutData()``).
    public private(set) var data: [UInt8]
    public private(set) var thumbnail: [UInt8]
    /// The file's size in bytes.
    public let byteCount: Int
    public let codec: PhotoSettings.Codec
    public let width: Int
    public let height: Int
    public let orientation: Int
    public let capturedAt: Date
    public var albums: [String] = []
    /// The library's photos a composed picture was made from (its shots).
    public var parts: [Int64] = []
    /// A photo's quality (1–100); `nil` for a composed picture.
    public let quality: Int?
    /// Whether the flash fired for a photo; `nil` for a composed picture.
    public let flashFired: Bool?
    /// Whether the picture is composed of several photos.
    public var isComposed: Bool { quality == nil }
    /// For a HEIC processed later: what it is made from, while ``data`` is its JPEG proxy.
    public private(set) var pending: PendingHEVC?
    /// The RAW file a DSLR wrote beside the photo, kept with it in the library.
    public private(set) var raw: CameraFile?

    /// A photo as the camera made it.
    public init(_ photo: Photo, albums: [String] = []) {
        data = photo.fileData
        byteCount = photo.fileData.count
        thumbnail = photo.thumbnailData
        codec = photo.resolvedSettings.codec
        (width, height, orientation) = (photo.width, photo.height, photo.orientation)
        capturedAt = photo.capturedAt
        self.albums = albums
        quality = photo.resolvedSettings.quality
        flashFired = photo.resolvedSettings.isFlashFired
        pending = photo.pendingHEVC
        raw = photo.cameraRaw
    }

    /// A JPEG composed of several photos, with its thumbnail (JPEG too; empty for none).
    public init(composed data: [UInt8], thumbnail: [UInt8] = [], width: Int, height: Int, capturedAt: Date, albums: [String]) {
        self.data = data
        byteCount = data.count
        self.thumbnail = thumbnail
        codec = .jpeg
        (self.width, self.height, orientation) = (width, height, 1)
        self.capturedAt = capturedAt
        self.albums = albums
        (quality, flashFired) = (nil, nil)
    }

    /// The item without its file and thumbnail, to remember once it is written.
    func withoutData() -> DeliveryItem {
        var item = self
        (item.data, item.thumbnail, item.pending, item.raw) = ([], [], nil, nil)
        return item
    }

    /// The item as its final file is: `codec`, `byteCount` bytes, nothing pending.
    func finished(codec: PhotoSettings.Codec, byteCount: Int, data: [UInt8] = []) -> DeliveryItem {
        var finished = DeliveryItem(data: data, thumbnail: thumbnail, byteCount: byteCount, codec: codec, width: width, height: height,
                                    orientation: orientation, capturedAt: capturedAt, albums: albums, quality: quality, flashFired: flashFired)
        finished.parts = parts
        return finished
    }

    private init(data: [UInt8], thumbnail: [UInt8], byteCount: Int, codec: PhotoSettings.Codec, width: Int, height: Int,
                 orientation: Int, capturedAt: Date, albums: [String], quality: Int?, flashFired: Bool?) {
        (self.data, self.thumbnail, self.byteCount, self.codec) = (data, thumbnail, byteCount, codec)
        (self.width, self.height, self.orientation, self.capturedAt) = (width, height, orientation, capturedAt)
        (self.albums, self.quality, self.flashFired) = (albums, quality, flashFired)
    }
}

/// What was written for one picture.
public struct Delivered: Sendable {
    /// Where the picture is kept: its library file, else its copy, else `-` (standard output).
    public let path: String
    public let libraryPhoto: LibraryPhoto?
    /// The copy's path, when one was written to a file.
    public let copy: String?
    public let item: DeliveryItem
    /// The camera's name and id.
    public let device: (name: String, id: String)
    /// The path of its guests' download link (``GuestLinks``), when it is in a library.
    public var guestLink: String?

    /// What was written, without the picture's bytes: what a long burst keeps of each photo.
    public func withoutData() -> Delivered {
        Delivered(path: path, libraryPhoto: libraryPhoto, copy: copy, item: item.withoutData(), device: device, guestLink: guestLink)
    }

    /// Its record, as a front end prints it and the sidecar holds it.
    public var record: PhotoRecord {
        var record = PhotoRecord(path: path, id: libraryPhoto?.id, width: item.width, height: item.height, codec: item.codec.rawValue,
                                 capturedAt: WireTime.iso(item.capturedAt), capturedAtMicroseconds: WireTime.microseconds(item.capturedAt),
                                 device: device.name, deviceID: device.id, bytes: item.byteCount, orientation: item.orientation,
                                 thumbnailPath: libraryPhoto?.thumbnailPath, state: libraryPhoto?.isProcessing == true ? "processing" : "final")
        (record.quality, record.flashFired, record.output, record.albums) = (item.quality, item.flashFired, copy, libraryPhoto?.albums)
        (record.rawPath, record.guestLink) = (libraryPhoto?.rawPath, guestLink)
        if item.isComposed { record.composed = true }
        return record
    }
}
