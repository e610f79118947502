import FoundationEssentials
import Glibc
import GStreamer

/// A captured photo: the encoded file with its metadata, a thumbnail, and when and how it was taken.
public struct Photo: Sendable {
    /// The capture's id, unique within the session; every event of the capture carries it.
    public let captureID: Int
    /// The encoded file (JPEG with EXIF), ready to write.
    public let fileData: [UInt8]
    /// The embedded preview as JPEG data, empty without a thumbnail.
    public let thumbnailData: [UInt8]
    /// What the capture actually used.
    public let resolvedSettings: ResolvedPhotoSettings
    /// The EXIF orientation, 1 (as stored) to 8.
    public let orientation: Int
    /// The camera's name.
    public let deviceName: String
    /// The wall-clock time of the request.
    public let requestedAt: Date
    /// When the camera took the frame, on the system's real-time clock (the photo's EXIF
    /// DateTimeOriginal and SubSecTimeOriginal); the request's time when the frame's is unknown.
    public let capturedAt: Date
    /// The pipeline's running time at the request.
    public let requestTime: ClockTime?
    /// The timestamp of the frame taken, on the same timeline as ``requestTime``.
    public let frameTime: ClockTime?
    /// The frame's number in the stream, where the source numbers its frames.
    public let frameNumber: UInt64?
    /// For a HEIC taken with deferred processing: the photo to encode later, while ``fileData``
    /// is its JPEG proxy (``PhotoSettings/defersHEVCProcessing``).
    public internal(set) var pendingHEVC: PendingHEVC? = nil
    /// The RAW file a DSLR set to RAW+JPEG wrote beside this photo's JPEG, as it wrote it.
    public internal(set) var cameraRaw: CameraFile? = nil
    /// Deletes the photo's files from the DSLR's card, when the session deletes them once kept.
    var cardRemoval: (@Sendable () async -> Void)? = nil

    /// Tells the camera the photo is kept: a DSLR whose session deletes photos from its card
    /// (``SessionConfiguration/deletesFromCameraCard``) deletes this one's files (its JPEG and
    /// RAW) now. Call it once the photo is written where it stays; nothing for other photos. A
    /// file the camera fails to delete stays on its card.
    public func releaseCameraFiles() async {
        await cardRemoval?()
    }

    /// The photo with what is known of it but not its file or thumbnail, to keep once it is
    /// delivered.
    public func withoutData() -> Photo {
        Photo(captureID: captureID, fileData: [], thumbnailData: [], resolvedSettings: resolvedSettings, orientation: orientation,
              deviceName: deviceName, requestedAt: requestedAt, capturedAt: capturedAt, requestTime: requestTime,
              frameTime: frameTime, frameNumber: frameNumber)
    }

    /// The photo's width in pixels.
    public var width: Int { resolvedSettings.width }
    /// The photo's height in pixels.
    public var height: Int { resolvedSettings.height }
}

extension Photo {
    /// A photo taken by a camera other than a session's (one made in memory, for a test), with
    /// what a session tells of its photos.
    public init(captureID: Int, fileData: [UInt8], thumbnailData: [UInt8], resolvedSettings: ResolvedPhotoSettings,
                deviceName: String, requestedAt: Date, capturedAt: Date, frameNumber: UInt64? = nil) {
        self.init(captureID: captureID, fileData: fileData, thumbnailData: thumbnailData, resolvedSettings: resolvedSettings,
                  orientation: resolvedSettings.exifOrientation, deviceName: deviceName, requestedAt: requestedAt, capturedAt: capturedAt,
                  requestTime: nil, frameTime: nil, frameNumber: frameNumber)
    }
}

/// A file as a camera wrote it on its card: its name there (`DSC_0001.NEF`) and its bytes.
public struct CameraFile: Sendable, Equatable {
    /// Its name on the card, as the camera wrote it.
    public let name: String
    /// Its bytes, as the camera wrote them.
    public let data: [UInt8]

    /// The file named `name` on a camera's card, holding `data`.
    public init(name: String, data: [UInt8]) {
        (self.name, self.data) = (name, data)
    }
}

/// The lifecycle of one capture, as AVCapturePhotoCaptureDelegate reports it.
public enum PhotoCaptureEvent: Sendable {
    /// The capture was accepted with these settings.
    case willBeginCapture(id: Int, ResolvedPhotoSettings)
    /// The shutter moment: the frame is chosen now.
    case willCapturePhoto(id: Int)
    /// The frame was taken.
    case didCapturePhoto(id: Int)
    /// The photo is encoded.
    case didFinishProcessingPhoto(id: Int)
    /// The capture is over; `error` is set when it failed.
    case didFinishCapture(id: Int, error: CaptureError?)

    /// The id of the capture the event belongs to.
    public var captureID: Int {
        switch self {
        case .willBeginCapture(let id, _), .willCapturePhoto(let id), .didCapturePhoto(let id),
             .didFinishProcessingPhoto(let id), .didFinishCapture(let id, _):
            id
        }
    }
}
