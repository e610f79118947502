import Foundation
import GStreamer
import ImageMetadata
import Synchronization

/// Takes photos from the session's still branch, as AVCapturePhotoOutput does.
///
/// A capture takes a frame the session already has (zero shutter lag) and encodes it off the
/// camera's thread; several captures may overlap, and their photos are published in request order.
public final class PhotoOutput: Sendable {
    /// Whether a capture can start now.
    public enum Readiness: Sendable, Equatable {
        /// The session is not running.
        case notRunning
        /// A capture starts at once.
        case ready
        /// Earlier captures are still being encoded; a new one queues behind them.
        case busy
    }

    /// What the running session lends the output.
    struct Attachment: Sendable {
        let photoEncoder: StillEncoder
        let thumbnailEncoder: StillEncoder
        let clock: Element
        let deviceName: String
        let width: Int
        let height: Int
    }

    private struct State {
        var attachment: Attachment?
        var nextID = 1
        var inFlight = 0
        /// Finished photos waiting for earlier captures, so the stream keeps request order.
        var finished: [Int: Photo?] = [:]
        var nextToPublish = 1
    }

    let ring = FrameRing()
    private let state = Mutex(State())
    private let photoStream = Broadcast<Photo>()
    private let eventStream = Broadcast<PhotoCaptureEvent>()

    init() {}

    /// Every photo taken from now on, in request order (seed 000's photo stream).
    public func photos(bufferingNewest limit: Int = 16) -> AsyncStream<Photo> {
        photoStream.subscribe(bufferingNewest: limit)
    }

    /// The lifecycle events of every capture from now on.
    public func events(bufferingNewest limit: Int = 256) -> AsyncStream<PhotoCaptureEvent> {
        eventStream.subscribe(bufferingNewest: limit)
    }

    /// Whether a capture can start now.
    public var readiness: Readiness {
        state.withLock { state in
            state.attachment == nil ? .notRunning : (state.inFlight > 0 ? .busy : .ready)
        }
    }

    /// Takes a photo.
    ///
    /// With prioritization `speed` or `balanced` the photo is the frame current at the request;
    /// with `quality`, the next frame.
    public func capture(_ settings: PhotoSettings = PhotoSettings()) async throws(CaptureError) -> Photo {
        let requestedAt = Date()
        try validate(settings)
        let (id, attachment) = try begin()
        let requestTime = attachment.clock.runningTime
        let resolved = ResolvedPhotoSettings(settings, width: attachment.width, height: attachment.height)
        do {
            eventStream.send(.willBeginCapture(id: id, resolved))
            eventStream.send(.willCapturePhoto(id: id))
            let frame = try await chooseFrame(for: settings.prioritization)
            eventStream.send(.didCapturePhoto(id: id))
            let buffer = frame.buffer
            async let encoded = attachment.photoEncoder.encode(frame, quality: settings.quality)
            async let thumbnail: [UInt8] = resolved.thumbnailWidth > 0
                ? attachment.thumbnailEncoder.encode(frame, quality: 80, width: resolved.thumbnailWidth, height: resolved.thumbnailHeight)
                : []
            let exif = metadata(deviceName: attachment.deviceName, resolved: resolved, capturedAt: requestedAt)
            let fileData = try JPEGFile.embeddingExif(exif.tiffData(), in: try await encoded)
            let photo = Photo(
                captureID: id, fileData: fileData, thumbnailData: try await thumbnail, resolvedSettings: resolved,
                orientation: exif.orientation, deviceName: attachment.deviceName, requestedAt: requestedAt,
                requestTime: requestTime, frameTime: buffer?.presentationTime, frameNumber: buffer?.offset)
            eventStream.send(.didFinishProcessingPhoto(id: id))
            finish(id, with: photo)
            eventStream.send(.didFinishCapture(id: id, error: nil))
            return photo
        } catch {
            finish(id, with: nil)
            let failure = (error as? CaptureError) ?? CaptureError(.pipeline, "the photo could not be made: \(error)")
            eventStream.send(.didFinishCapture(id: id, error: failure))
            throw failure
        }
    }

    private func validate(_ settings: PhotoSettings) throws(CaptureError) {
        guard settings.codec == .jpeg else {
            throw CaptureError(.invalidSetting, "HEVC (HEIC) photos are coming in a later release; use JPEG for now")
        }
        guard (1...100).contains(settings.quality) else {
            throw CaptureError(.invalidSetting, "the JPEG quality \(settings.quality) is out of range; use 1 to 100")
        }
        guard settings.flashMode != .on else {
            let camera = state.withLock { $0.attachment?.deviceName } ?? "the camera"
            throw CaptureError(.invalidSetting, "\(camera) has no flash; use flash off or auto")
        }
    }

    private func begin() throws(CaptureError) -> (Int, Attachment) {
        try state.withLock { state throws(CaptureError) in
            guard let attachment = state.attachment else {
                throw CaptureError(.notRunning, "the session is not running; start it before capturing")
            }
            defer { state.nextID += 1; state.inFlight += 1 }
            return (state.nextID, attachment)
        }
    }

    private func chooseFrame(for prioritization: PhotoSettings.QualityPrioritization) async throws(CaptureError) -> Sample {
        if prioritization != .quality, let current = try ring.latest() {
            return current
        }
        return try await ring.next(timeout: .seconds(5))
    }

    private func metadata(deviceName: String, resolved: ResolvedPhotoSettings, capturedAt: Date) -> ExifMetadata {
        var exif = ExifMetadata()
        exif.make = "camctl"
        exif.model = deviceName
        exif.software = "camctl \(CameraKitVersion.current)"
        exif.dateTimeOriginal = capturedAt
        exif.pixelWidth = resolved.width
        exif.pixelHeight = resolved.height
        exif.flash = .noFlashFunction
        return exif
    }

    /// Records a capture's end and publishes, in request order, every photo that is now due.
    private func finish(_ id: Int, with photo: Photo?) {
        let due = state.withLock { state -> [Photo] in
            state.inFlight -= 1
            state.finished[id] = .some(photo)
            var due: [Photo] = []
            while let next = state.finished.removeValue(forKey: state.nextToPublish) {
                if let next { due.append(next) }
                state.nextToPublish += 1
            }
            return due
        }
        for photo in due { photoStream.send(photo) }
    }

    /// Connects the output to a running session.
    func attach(_ attachment: Attachment) {
        state.withLock { $0.attachment = attachment }
        ring.open()
    }

    /// Disconnects the output; captures waiting for a frame fail with `reason`.
    func detach(_ reason: CaptureError) -> Attachment? {
        ring.close(reason)
        return state.withLock { state in
            defer { state.attachment = nil }
            return state.attachment
        }
    }
}

/// The version written into photos' Software field.
public enum CameraKitVersion {
    public static let current = "0.2.0"
}
