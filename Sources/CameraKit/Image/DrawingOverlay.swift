import FileSystem
import FoundationEssentials
import Glibc
import GStreamer
import HEIFDecoding
import ImageMetadata

/// A drawing (a PNG with transparency) laid over a picture, as a drawing app merges a drawing onto
/// the photo it was drawn on: over a photo file with ``drawn(onto:quality:)``, or over every
/// frame of a session (preview, frames and photos) as ``ImageSettings/overlay``.
public struct DrawingOverlay: Sendable, Equatable {
    /// The PNG file.
    public let path: String
    /// The drawing's own size in pixels.
    public let width: Int
    public let height: Int
    /// Where the drawing's top-left corner goes, in pixels of the picture as it is displayed
    /// (a photo's orientation applied).
    public var x = 0
    public var y = 0
    /// The drawing's size as a multiple of its own; `nil` scales it to the picture's width.
    public var scale: Double?
    /// From 0 (not seen) to 1 (as drawn).
    public var opacity = 1.0

    /// The largest drawing file read, in bytes.
    public static let maximumFileSize = 64 * 1_048_576

    /// Reads the drawing's size from its PNG header and checks its chunks, without decoding it.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` when the file is missing, unreadable or not a
    ///   regular file; ``CaptureError/Code/unreadableFile`` when it is not a PNG, is damaged, or is
    ///   larger than ``PNGHeader/maximumPixels`` or ``maximumFileSize``.
    public init(path: String) throws(CaptureError) {
        let bytes = try SettingFile.contents(of: path, naming: "the drawing", limit: Self.maximumFileSize)
        let header: PNGHeader
        do {
            header = try PNGHeader.checkingChunks(of: bytes)
        } catch {
            throw CaptureError(.unreadableFile, Self.describe(error, path: path))
        }
        self.path = path
        width = header.width
        height = header.height
    }

    static func describe(_ problem: PNGHeader.Problem, path: String) -> String {
        switch problem {
        case .notPNG: "the drawing \(path) is not a PNG picture; save it as PNG (with transparency)"
        case .damaged(let what): "the drawing \(path) is a damaged PNG: \(what)"
        case .tooLarge(let width, let height):
            "the drawing \(path) is \(width)x\(height) pixels, more than the \(PNGHeader.maximumPixels / 1_048_576) megapixels "
                + "(or \(PNGHeader.maximumSide) pixels a side) a drawing may have; scale it down"
        }
    }

    /// Draws onto a JPEG or HEIC photo; the result is a JPEG with the photo's size, EXIF and
    /// orientation (a HEIC's pixels turned as it is displayed), an EXIF thumbnail of the result (160
    /// pixels wide) when the photo had EXIF, and the drawing where it was placed on the photo as displayed.
    ///
    /// - Throws: ``CaptureError/Code/unreadableFile`` when the photo is neither, or cannot be decoded,
    ///   ``CaptureError/Code/invalidSetting`` when the drawing is placed off the photo.
    public func drawn(onto photo: [UInt8], quality: Int = 95) async throws(CaptureError) -> [UInt8] {
        let source = try Source(photo)
        let stored = source.size
        let exif = source.exif.map(JPEGFile.removingThumbnail(fromExif:))
        let orientation = ExifOrientation(value: exif.flatMap(JPEGFile.orientation(inExif:)) ?? 1)
        let placement = try self.placement(onWidth: stored.width, height: stored.height, orientation: orientation)
        let drawing = orientation.value == 1 ? path : try await Self.turned(path, method: orientation.storing)
        defer { if drawing != path { try? FileManager.default.removeItem(atPath: drawing) } }
        let thumbnailHeight = max(2, Self.thumbnailWidth * stored.height / stored.width / 2 * 2)
        let encoded: [UInt8], thumbnail: [UInt8]?
        var started: AppPipeline?
        do {
            let transform = try await AppPipeline(describing: """
                appsrc name=input caps=\(source.caps) \(source.decoder) ! videoconvert \
                ! gdkpixbufoverlay \(SessionElement.drawing.assignment) location=\(Element.launchQuoted(drawing)) offset-x=\(placement.x) offset-y=\(placement.y) \
                overlay-width=\(placement.width) overlay-height=\(placement.height) alpha=\(opacity) \
                ! videoconvert ! tee name=drawn drawn. ! queue ! jpegenc quality=\(quality) ! appsink name=output sync=false \
                drawn. ! queue ! videoscale ! video/x-raw,width=\(Self.thumbnailWidth),height=\(thumbnailHeight) ! jpegenc quality=80 \
                ! appsink name=thumbnail sync=false
                """, label: "overlay")
            let thumbnails = transform.pipeline.element(named: "thumbnail", as: AppSink.self)
            started = transform
            let picture = try source.bytes.withUnsafeBytes { try Buffer(copying: $0) }
            let samples = try await transform.transform([picture], pulling: thumbnails.map { [$0] } ?? [])
            let (sample, small) = (samples[0], samples.count > 1 ? samples[1] : nil)
            try await transform.pipeline.stop()
            started = nil
            guard let buffer = sample?.buffer else { throw CaptureError(.unreadableFile, "the photo could not be decoded") }
            encoded = try buffer.bytes()
            thumbnail = try small?.buffer?.bytes()
        } catch let error as CaptureError {
            await started?.stop()
            throw error
        } catch let error as GStreamerError where error.element == SessionElement.drawing.rawValue {
            await started?.stop()
            throw CaptureError(.unreadableFile, "the drawing \(path) could not be decoded; it is a damaged PNG", debugInfo: error.debugInfo)
        } catch {
            await started?.stop()
            throw CaptureError.converting(error, context: "the drawing could not be laid over the photo")
        }
        guard let exif else { return encoded }
        do {
            let kept = thumbnail.flatMap { JPEGFile.replacingThumbnail(inExif: exif, with: $0) } ?? exif
            return try JPEGFile.embeddingExif(kept, in: encoded)
        } catch {
            throw CaptureError(.pipeline, "the photo's EXIF could not be kept: \(error)")
        }
    }

    /// A photo as the overlay's pipeline takes it: a JPEG as it is, decoded there; a HEIC decoded
    /// here by libheif, turned as displayed, its EXIF saying so.
    private struct Source {
        let bytes: [UInt8]
        let size: (width: Int, height: Int)
        let exif: [UInt8]?
        let caps: String
        let decoder: String

        init(_ photo: [UInt8]) throws(CaptureError) {
            guard HEIFDecoder.isHEIF(photo) else {
                guard let stored = JPEGFile.dimensions(of: photo) else {
                    throw CaptureError(.unreadableFile, "the photo is not a JPEG or HEIC picture; overlay reads JPEG and HEIC photos")
                }
                do {
                    try PictureBudget.check(width: stored.width, height: stored.height)
                } catch {
                    throw CaptureError(.unreadableFile, error.message.replacing("the picture", with: "the photo", maxReplacements: 1))
                }
                (bytes, size, exif, caps, decoder) = (photo, stored, JPEGFile.exifBlock(of: photo), "image/jpeg", "! jpegdec")
                return
            }
            let decoded: DecodedHEIF
            do {
                decoded = try HEIFDecoder.decode(photo, maximumPixels: PictureBudget.maximumPixels, maximumSide: PictureBudget.maximumSide)
            } catch {
                throw CaptureError(.unreadableFile, error.message)
            }
            bytes = decoded.rgb
            size = (decoded.width, decoded.height)
            exif = decoded.exif.map { JPEGFile.settingOrientation(inExif: $0, to: 1) }
            caps = "\"video/x-raw,format=RGB,width=\(decoded.width),height=\(decoded.height),framerate=0/1\""
            decoder = ""
        }
    }

    /// The width of the thumbnail a drawn photo's EXIF holds.
    static let thumbnailWidth = 160

    /// The drawing's rectangle in the stored pixels of a picture whose EXIF orientation turns it
    /// for display.
    func placement(onWidth width: Int, height: Int, orientation: ExifOrientation = ExifOrientation(value: 1)) throws(CaptureError)
        -> (x: Int, y: Int, width: Int, height: Int) {
        let (shownWidth, shownHeight) = orientation.swapsSides ? (height, width) : (width, height)
        guard (0..<shownWidth).contains(x), (0..<shownHeight).contains(y) else {
            throw CaptureError(.invalidSetting, "the drawing's position \(x),\(y) is off the \(shownWidth)x\(shownHeight) picture")
        }
        guard (0...1).contains(opacity) else {
            throw CaptureError(.invalidSetting, "the drawing's opacity \(opacity) is out of range; use 0 to 1")
        }
        let factor = scale ?? Double(shownWidth) / Double(self.width)
        guard factor > 0, factor.isFinite else { throw CaptureError(.invalidSetting, "the drawing's scale \(factor) is not above 0") }
        let drawnWidth = max(1, Int((Double(self.width) * factor).rounded()))
        let drawnHeight = max(1, Int((Double(self.height) * factor).rounded()))
        // gdkpixbufoverlay scales the whole drawing before clipping it: a giant one would not fit in memory.
        guard drawnWidth <= 4 * shownWidth, drawnHeight <= 4 * shownHeight else {
            throw CaptureError(.invalidSetting, "the drawing scaled by \(factor) would be \(drawnWidth)x\(drawnHeight), "
                + "more than four times the \(shownWidth)x\(shownHeight) picture", remedy: .shrinkDrawing)
        }
        let first = orientation.storedPoint(x: x, y: y, width: width, height: height)
        let second = orientation.storedPoint(x: x + drawnWidth, y: y + drawnHeight, width: width, height: height)
        return (min(first.x, second.x), min(first.y, second.y), abs(first.x - second.x), abs(first.y - second.y))
    }

    /// A copy of a PNG turned by `method`, in a temporary file.
    private static func turned(_ path: String, method: String) async throws(CaptureError) -> String {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("camctl-drawing-\(UUID().uuidString).png").path
        var started: Pipeline?
        do {
            let pipeline = try Pipeline(describing: """
                filesrc location=\(Element.launchQuoted(path)) ! pngdec ! videoconvert ! videoflip video-direction=\(ExifOrientation.direction(ofMethod: method)) \
                ! videoconvert ! pngenc ! filesink location=\(Element.launchQuoted(copy))
                """)
            started = pipeline
            try await pipeline.play()
            try await pipeline.waitForEndOfStream()
            try await pipeline.stop()
        } catch {
            try? await started?.stop()
            try? FileManager.default.removeItem(atPath: copy)
            throw CaptureError(.unreadableFile, "the drawing \(path) could not be decoded; it is a damaged PNG",
                               debugInfo: error.debugInfo)
        }
        return copy
    }
}
