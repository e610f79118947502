import Foundation
import GStreamer

/// Writes the session's pipeline in gst-launch syntax: one source at capture size, a tee, and a
/// branch per output, each behind its own queue so no branch stalls another.
///
/// ```
/// source ! identity name=camera_input ! filters ! image stage ! tee name=split
///   split. ! queue ! appsink name=stills          (frames kept for photos)
///   split. ! queue leaky ! … ! appsink name=frames (frames to Swift)
///   split. ! queue leaky ! valve ! videoscale ! … ! videoflip ! preview sink
/// ```
/// The text is exactly what runs, so `--print-pipeline` output can be pasted into gst-launch-1.0
/// (where the identity elements of tone filters, which camctl rewrites frames at, pass frames on).
struct SessionPipeline {
    let configuration: SessionConfiguration
    let format: CaptureFormat

    /// The whole pipeline, as it runs.
    var description: String {
        source + " ! " + outputs(withLook: true)
    }

    /// Everything after the camera, as the session builds it: the image stage's look (its filters)
    /// is a bin the session links in itself, so it can be swapped while running.
    var outputs: String { outputs(withLook: false) }

    /// The session's image settings as elements and property values.
    var image: ImageStage {
        ImageStage(configuration.image, frameWidth: format.width, frameHeight: format.height, device: configuration.device)
    }

    /// Everything after the camera: the filters, the image stage, the tee and its branches. The
    /// camera is a bin of its own, linked to the element named ``cameraInput``, so it can be
    /// swapped while the outputs go on.
    private func outputs(withLook: Bool) -> String {
        let image = self.image
        var branches: [String] = []
        if configuration.capturesPhotos {
            branches.append("split. ! queue name=stills_queue max-size-buffers=2 max-size-bytes=0 max-size-time=0 "
                + "! appsink name=stills sync=false max-buffers=1 drop=true wait-on-eos=false")
        }
        if let videoData = configuration.videoData {
            branches.append("split. ! queue name=frames_queue leaky=downstream max-size-buffers=2 max-size-bytes=0 max-size-time=0 "
                + "! videoconvert ! video/x-raw,format=\(videoData.pixelFormat) "
                + "! appsink name=frames sync=false max-buffers=2 drop=true wait-on-eos=false")
        }
        if let preview = configuration.preview {
            branches.append("split. ! queue name=preview_queue leaky=downstream max-size-buffers=2 max-size-bytes=0 max-size-time=0 "
                + "! valve name=preview_valve ! videoscale ! videoconvert "
                + "! capsfilter name=\(Self.previewSize) caps=\"\(Self.previewCaps(image, preview))\" "
                + "! videoflip name=\(ImageStage.previewOrientation) method=\(image.previewOrientationMethod) ! "
                + (preview.showsText ? "textoverlay name=preview_text silent=true valignment=center halignment=center "
                    + "font-desc=\"Sans Bold \(max(12, min(preview.maximumHeight, image.outputSize.height) / 3))\" ! videoconvert ! " : "")
                + preview.sink)
        }
        if branches.isEmpty {
            branches.append("split. ! queue ! fakesink sync=false")
        }
        var chain = "identity name=\(Self.cameraInput) ! "
        if !configuration.filters.isEmpty {
            // Filters apply to every output alike; whatever they do, frames leave them as the camera's.
            chain += configuration.filters.joined(separator: " ! ")
                + " ! videoconvert ! videoscale ! video/x-raw,format=I420,width=\(format.width),height=\(format.height) ! "
        }
        chain += image.adjustments + " ! " + (withLook ? image.look + " ! " : "")
        return ([chain + "tee name=split"] + branches).joined(separator: " ")
    }

    /// The preview's capsfilter, which fits the picture into the preview's largest size.
    static let previewSize = "preview_size"

    /// The preview's size: the image stage's picture scaled down to fit, before it is turned.
    static func previewCaps(_ image: ImageStage, _ preview: PreviewConfiguration) -> String {
        let picture = image.outputSize
        let (width, height) = fit(picture.width, picture.height, into: preview.maximumWidth, preview.maximumHeight)
        return "video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1"
    }

    /// The first element after the camera.
    static let cameraInput = "camera_input"

    /// The camera, delivering I420 frames at the capture size and rate. It is built as a bin of its
    /// own, so it ends in an element named ``sourceOutput`` whose source pad the bin exposes.
    ///
    /// A camera that sends MJPEG is decoded for the outputs; when the session takes photos, its
    /// JPEG frames also go to an app sink (``cameraJPEGSink``), so a photo at the camera's own
    /// size is the camera's JPEG, not a decode and a second encode.
    var source: String {
        let raw = "video/x-raw,format=I420,width=\(format.width),height=\(format.height),framerate=\(format.frameRate)"
        switch configuration.device.kind {
        case .testPattern(let pattern):
            let camera = "videotestsrc name=camera is-live=true pattern=\(pattern) horizontal-speed=4"
            guard format.mediaType == "image/jpeg" else {
                return "\(camera) ! capsfilter name=\(Self.sourceOutput) caps=\(raw)"
            }
            // A webcam that sends MJPEG, for testing that path: the test picture, encoded in the source.
            return "\(camera) ! \(raw) ! jpegenc ! image/jpeg,framerate=\(format.frameRate)" + decodedJPEG
        case .custom(let description):
            // Any source a person describes, brought to the capture format and paced by the clock.
            return "\(description) ! videoconvert ! videoscale ! videorate ! \(raw) ! identity name=\(Self.sourceOutput) sync=true"
        case .file(let path):
            return "filesrc name=camera location=\(Element.launchQuoted(path)) ! decodebin name=\(Self.fileDecoder) ! " + decodedFile(path)
        case .system(_, _, let element):
            let camera = "\(element) name=camera ! \(format.capsDescription)"
            guard format.mediaType == "image/jpeg" else {
                return "\(camera) ! videoconvert ! capsfilter name=\(Self.sourceOutput) caps=video/x-raw,format=I420"
            }
            return camera + decodedJPEG
        }
    }

    /// After a file's decoder: scaled to the capture size; a picture repeated as a live stream,
    /// a video played at its own pace, as a camera would deliver them. Starts with an element
    /// named ``fileDecoderOutput``.
    func decodedFile(_ path: String) -> String {
        let scaled = "videoconvert name=\(Self.fileDecoderOutput) ! videoscale "
            + "! video/x-raw,format=I420,width=\(format.width),height=\(format.height),pixel-aspect-ratio=1/1"
        // Paced by the clock (identity sync=true), as a camera delivers frames. (imagefreeze's own
        // is-live mode sometimes never started under load in GStreamer 1.22.)
        let repeated = SessionPipeline.isStillImage(path) ? "imagefreeze" : "videorate"
        return scaled + " ! \(repeated) ! video/x-raw,framerate=\(format.frameRate) ! identity name=\(Self.sourceOutput) sync=true"
    }

    /// The decoder of a file used as a camera.
    static let fileDecoder = "camera_decoder"
    /// The first element after the decoder of a file used as a camera.
    static let fileDecoderOutput = "camera_decoded"

    /// After a camera's JPEG frames: decoded for the outputs, and kept as they are for photos.
    private var decodedJPEG: String {
        let decode = " ! jpegdec ! videoconvert ! capsfilter name=\(Self.sourceOutput) caps=video/x-raw,format=I420"
        guard configuration.capturesPhotos else { return decode }
        return " ! tee name=camera_jpeg" + decode + " camera_jpeg. ! queue max-size-buffers=2 max-size-bytes=0 max-size-time=0 "
            + "! appsink name=\(Self.cameraJPEGSink) sync=false max-buffers=1 drop=true wait-on-eos=false"
    }

    /// The app sink that receives an MJPEG camera's own JPEG frames.
    static let cameraJPEGSink = "camera_jpeg_frames"

    /// The name of the camera bin's last element.
    static let sourceOutput = "camera_output"

    /// Whether a file is a still picture rather than a video, by its extension.
    static func isStillImage(_ path: String) -> Bool {
        ["jpg", "jpeg", "png", "bmp", "gif", "tif", "tiff", "webp", "pnm", "ppm"]
            .contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// The largest even size with the frame's aspect ratio inside the box.
    private static func fit(_ width: Int, _ height: Int, into maxWidth: Int, _ maxHeight: Int) -> (Int, Int) {
        let scale = min(1, min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height)))
        return (max(2, Int(Double(width) * scale) / 2 * 2), max(2, Int(Double(height) * scale) / 2 * 2))
    }
}
