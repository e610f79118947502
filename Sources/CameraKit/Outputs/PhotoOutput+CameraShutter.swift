import FoundationEssentials
import GStreamer
import ImageMetadata

/// A camera's own shutter: fires it and returns the photo's file as the camera wrote it.
typealias CameraShutter = @Sendable () async throws(CaptureError) -> [UInt8]

extension PhotoOutput {
    /// Takes a photo with the camera's own shutter (a DSLR's: its full resolution, lens, settings
    /// and flash). The photo is the camera's file as it wrote it, EXIF and maker notes untouched;
    /// the session's picture settings (filters, words, zoom) are the preview's only. It gets a
    /// thumbnail of its own, as every photo does.
    ///
    /// - Throws: ``CaptureError`` when the camera does not take it, or writes no JPEG.
    func capture(_ settings: PhotoSettings, firing shutter: CameraShutter) async throws(CaptureError) -> Photo {
        let request = try begin(settings)
        let id = request.id
        do throws(CaptureError) {
            let file = try await shutter()
            eventStream.send(.didCapturePhoto(id: id))
            guard let size = JPEGFile.dimensions(of: file) else {
                throw CaptureError(.unreadableFile, "the camera's photo is no JPEG (a RAW file alone?); set the camera's image format to JPEG or RAW+JPEG")
            }
            let resolved = request.resolved.resized(width: size.width, height: size.height).usingCameraJPEG()
            let thumbnail = resolved.thumbnailWidth > 0
                ? try await Self.thumbnail(of: file, width: resolved.thumbnailWidth, height: resolved.thumbnailHeight) : []
            let orientation = JPEGFile.exifBlock(of: file).flatMap(JPEGFile.orientation(inExif:)) ?? 1
            let photo = Photo(captureID: id, fileData: file, thumbnailData: thumbnail, resolvedSettings: resolved, orientation: orientation,
                              deviceName: request.attachment.deviceName, requestedAt: request.requestedAt, capturedAt: Date(),
                              requestTime: nil, frameTime: nil, frameNumber: nil, pendingHEVC: nil)
            return published(photo)
        } catch {
            finish(id, with: nil)
            eventStream.send(.didFinishCapture(id: id, error: error))
            throw error
        }
    }

    /// A JPEG's thumbnail, `width`x`height`, as the camera's pixels are stored (its EXIF orientation applies to both).
    private static func thumbnail(of jpeg: [UInt8], width: Int, height: Int) async throws(CaptureError) -> [UInt8] {
        do {
            let scaler = try await AppPipeline(describing: """
                appsrc name=input caps=image/jpeg ! jpegdec ! videoconvert ! videoscale \
                ! video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1 ! jpegenc quality=80 ! appsink name=output sync=false
                """, label: "camera thumbnail")
            defer { Task { await scaler.stop() } }
            let sample = try await scaler.transform([try jpeg.withUnsafeBytes { try Buffer(copying: $0) }])[0]
            guard let thumbnail = try sample?.buffer?.bytes() else { throw CaptureError(.unreadableFile, "the camera's photo could not be decoded") }
            return thumbnail
        } catch let error as CaptureError {
            throw error
        } catch {
            throw CaptureError.converting(error, context: "the camera's photo could not be made into a thumbnail")
        }
    }
}
