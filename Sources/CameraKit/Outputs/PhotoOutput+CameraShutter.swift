import FoundationEssentials
import ImageMetadata

/// A camera's own shutter: fires it and returns the shot.
typealias CameraShutter = @Sendable () async throws(CaptureError) -> CameraShot

/// What a camera's own shutter gives: the photo's JPEG as the camera wrote it, the RAW file it
/// wrote beside it (if any), when its files are to leave the card once kept what deletes them,
/// when the shutter was fired, and the photo brought down to the session's size (what its
/// thumbnail is made from, so the full-size picture is decoded once).
struct CameraShot: Sendable {
    let jpeg: [UInt8]
    let raw: CameraFile?
    let removeFromCard: (@Sendable () async -> Void)?
    let firedAt: Date
    let screenSized: [UInt8]?
}

extension PhotoOutput {
    /// Takes a photo with the camera's own shutter (a DSLR's: its full resolution, lens, settings
    /// and flash). The photo is the camera's file as it wrote it, EXIF and maker notes untouched;
    /// the session's picture settings (filters, words, zoom) are the preview's only. It gets a
    /// thumbnail of its own, as every photo does. A RAW file the camera wrote beside it comes with it
    /// (``Photo/cameraRaw``).
    ///
    /// - Throws: ``CaptureError`` when the camera does not take it, or writes no JPEG.
    func capture(_ settings: PhotoSettings, firing shutter: CameraShutter) async throws(CaptureError) -> Photo {
        let request = try begin(settings)
        let id = request.id
        do throws(CaptureError) {
            let shot = try await shutter()
            let file = shot.jpeg
            eventStream.send(.didCapturePhoto(id: id))
            guard let size = JPEGFile.dimensions(of: file) else {
                throw CaptureError(.unreadableFile, "the camera's photo is no JPEG camctl can read (it stays on the card); set the camera's image format to JPEG or RAW+JPEG")
            }
            let resolved = request.resolved.resized(width: size.width, height: size.height).usingCameraJPEG()
            let thumbnail = resolved.thumbnailWidth > 0
                ? try await ScaledJPEG.make(from: thumbnailSource(of: shot, width: resolved.thumbnailWidth, height: resolved.thumbnailHeight),
                                            width: resolved.thumbnailWidth, height: resolved.thumbnailHeight, quality: 80) : []
            let orientation = JPEGFile.exifBlock(of: file).flatMap(JPEGFile.orientation(inExif:)) ?? 1
            var photo = Photo(captureID: id, fileData: file, thumbnailData: thumbnail, resolvedSettings: resolved, orientation: orientation,
                              deviceName: request.attachment.deviceName, requestedAt: request.requestedAt, capturedAt: shot.firedAt,
                              requestTime: nil, frameTime: nil, frameNumber: nil, pendingHEVC: nil)
            (photo.cameraRaw, photo.cardRemoval) = (shot.raw, shot.removeFromCard)
            return published(photo)
        } catch {
            finish(id, with: nil)
            eventStream.send(.didFinishCapture(id: id, error: error))
            throw error
        }
    }

    /// What a shot's thumbnail is made from: the photo at the session's size when that is at least
    /// the thumbnail's, else the camera's file.
    private func thumbnailSource(of shot: CameraShot, width: Int, height: Int) -> [UInt8] {
        guard let screen = shot.screenSized, let size = JPEGFile.dimensions(of: screen), size.width >= width, size.height >= height else {
            return shot.jpeg
        }
        return screen
    }
}
