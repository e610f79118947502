import Blocking
import GStreamer
import HEIFDecoding
import ImageMetadata

/// A JPEG of a HEIC photo as it is shown (turned as its orientation says), for the screens that
/// show no HEIC: a guest's phone, a browser. It carries no EXIF: the guest who wants the camera's
/// words downloads the photo itself.
public enum JPEGRendition {
    /// The JPEG's quality: a photo's, not a thumbnail's.
    public static let quality = 90

    /// The rendition of `heic`, decoded by libheif off Swift's shared threads, encoded by GStreamer.
    ///
    /// - Throws: ``CaptureError/Code/unreadableFile`` when the photo is no HEIC that can be decoded
    ///   within ``PictureBudget``.
    public static func of(heic: [UInt8]) async throws(CaptureError) -> [UInt8] {
        let decoded = try await lane.run { () throws(CaptureError) -> DecodedHEIF in
            do throws(HEIFDecodingError) {
                return try HEIFDecoder.decode(heic, maximumPixels: PictureBudget.maximumPixels, maximumSide: PictureBudget.maximumSide)
            } catch {
                throw CaptureError(.unreadableFile, error.message)
            }
        }
        var started: AppPipeline?
        do {
            // Rows as GStreamer lays out RGB: the decoder pads each to a multiple of four bytes.
            let transform = try await AppPipeline(describing: """
                appsrc name=input caps="video/x-raw,format=RGB,width=\(decoded.width),height=\(decoded.height),framerate=0/1" \
                ! videoconvert ! jpegenc quality=\(quality) ! appsink name=output sync=false
                """, label: "rendition")
            started = transform
            let picture = try decoded.rgb.withUnsafeBytes { try Buffer(copying: $0) }
            let sample = try await transform.transform([picture])[0]
            await transform.stop()
            started = nil
            guard let buffer = sample?.buffer else { throw CaptureError(.pipeline, "the photo's JPEG rendition could not be encoded") }
            return try buffer.bytes()
        } catch let error as CaptureError {
            await started?.stop()
            throw error
        } catch {
            await started?.stop()
            throw CaptureError.converting(error, context: "the photo's JPEG rendition could not be made")
        }
    }

    /// Where HEIC photos are decoded: a lane of its own, one at a time.
    private static let lane = BlockingLane(label: "rendition")
}
