import FoundationEssentials
import Glibc
import GStreamer

/// Writes the session's pipeline in gst-launch syntax: one source at capture size, a tee, and a
/// branch per output, each behind its own queue so no branch stalls another.
///
/// ```
/// source ! identity name=camera_input ! custom filters ! picture's bin ! tee name=split
///   split. ! queue ! appsink name=stills          (frames kept for photos)
///   split. ! queue leaky ! … ! appsink name=frames (frames to Swift)
///   split. ! queue leaky ! valve ! videoscale ! … ! videoflip ! preview sink
/// ```
/// The text is exactly what runs, so a printed pipeline can be pasted into gst-launch-1.0
/// (where the identity elements of tone filters, which camctl rewrites frames at, pass frames on).
public struct SessionPipeline: Sendable {
    /// The configuration the pipeline runs, and the camera's format.
    public let configuration: SessionConfiguration
    public let format: CaptureFormat
    /// The session's outputs, each writing its own branch.
    let outputs: [any SessionOutput]

    /// The whole pipeline, as it runs.
    var description: String {
        source + " ! " + afterCamera(withLook: true)
    }

    /// Everything after the camera, as the session builds it: the picture's bin (the image
    /// stage's look) is linked in by the session itself, so it can be swapped while running.
    var afterCamera: String { afterCamera(withLook: false) }

    /// The session's image settings as elements and property values.
    var image: ImageStage {
        ImageStage(configuration.image, frameWidth: format.width, frameHeight: format.height, device: configuration.device)
    }

    /// Everything after the camera: the custom filters, the picture's bin, the tee and the
    /// outputs' branches. The camera is a bin of its own, linked to the element named
    /// ``SessionElement/cameraInput``, so it can be swapped while the outputs go on.
    private func afterCamera(withLook: Bool) -> String {
        let image = self.image
        var branches = outputs.compactMap { $0.branch(in: self) }
        if branches.isEmpty {
            branches.append("split. ! queue ! fakesink sync=false")
        }
        var chain = "identity \(SessionElement.cameraInput.assignment) ! "
        if !configuration.filters.isEmpty {
            // Filters apply to every output alike; whatever they do, frames leave them as the camera's.
            chain += configuration.filters.joined(separator: " ! ") + " ! videoconvert ! videoscale ! capsfilter "
                + "\(SessionElement.filtersOutput.assignment) caps=video/x-raw,format=I420,width=\(format.width),height=\(format.height) ! "
        }
        if withLook, let look = image.look { chain += look + " ! " }
        return ([chain + "tee \(SessionElement.split.assignment)"] + branches).joined(separator: " ")
    }

    /// The camera, delivering I420 frames at the capture size and rate. It is built as a bin of its
    /// own, so it ends in an element named ``SessionElement/cameraOutput`` whose source pad the bin exposes.
    ///
    /// A camera that sends MJPEG is decoded for the outputs; when the session takes photos, its
    /// JPEG frames also go to an app sink (``SessionElement/cameraJPEGs``), so a photo at the camera's own
    /// size is the camera's JPEG, not a decode and a second encode.
    var source: String {
        let raw = "video/x-raw,format=I420,width=\(format.width),height=\(format.height),framerate=\(format.frameRate)"
        switch configuration.device.kind {
        case .testPattern(let pattern):
            let camera = "videotestsrc \(SessionElement.camera.assignment) is-live=true pattern=\(pattern) horizontal-speed=4"
            guard format.mediaType == "image/jpeg" else {
                return "\(camera) ! capsfilter \(SessionElement.cameraOutput.assignment) caps=\(raw)"
            }
            // A webcam that sends MJPEG, for testing that path: the test picture, encoded in the source.
            return "\(camera) ! \(raw) ! jpegenc ! image/jpeg,framerate=\(format.frameRate)" + decodedJPEG
        case .custom(let description):
            // Any source a person describes, brought to the capture format and paced by the clock.
            return "\(description) ! videoconvert ! videoscale ! videorate ! \(raw) ! identity \(SessionElement.cameraOutput.assignment) sync=true"
        case .file(let path):
            return "filesrc \(SessionElement.camera.assignment) location=\(Element.launchQuoted(path)) ! decodebin \(SessionElement.fileDecoder.assignment) ! " + decodedFile(path)
        case .gphoto2:
            // The camera's live view JPEGs (or its last photo, again and again), pushed as they
            // come; never blocking the feeder, which drops the oldest when the pipeline lags.
            return "appsrc \(SessionElement.camera.assignment) is-live=true do-timestamp=true format=time block=false "
                + "max-buffers=2 leaky-type=downstream caps=image/jpeg ! jpegdec ! " + decodedFile("")
        case .system(_, _, let element):
            let camera = "\(element) \(SessionElement.camera.assignment) ! \(format.capsDescription)"
            guard format.mediaType == "image/jpeg" else {
                return "\(camera) ! videoconvert ! capsfilter \(SessionElement.cameraOutput.assignment) caps=video/x-raw,format=I420"
            }
            return camera + decodedJPEG
        }
    }

    /// After a file's decoder: scaled to the capture size; a picture repeated as a live stream,
    /// a video played at its own pace, as a camera would deliver them. Starts with an element
    /// named ``SessionElement/fileDecoderOutput``.
    func decodedFile(_ path: String) -> String {
        let scaled = "videoconvert \(SessionElement.fileDecoderOutput.assignment) ! videoscale "
            + "! video/x-raw,format=I420,width=\(format.width),height=\(format.height),pixel-aspect-ratio=1/1"
        // Paced by the clock (identity sync=true), as a camera delivers frames. (imagefreeze's own
        // is-live mode sometimes never started under load in GStreamer 1.22.)
        let repeated = SessionPipeline.isStillImage(path) ? "imagefreeze" : "videorate"
        return scaled + " ! \(repeated) ! video/x-raw,framerate=\(format.frameRate) ! identity \(SessionElement.cameraOutput.assignment) sync=true"
    }

    /// After a camera's JPEG frames: decoded for the outputs, and kept as they are for photos and,
    /// when they can pass as they are (``passesCameraJPEGsLive``), for the live JPEG frames.
    private var decodedJPEG: String {
        let decode = " ! jpegdec ! videoconvert ! capsfilter \(SessionElement.cameraOutput.assignment) caps=video/x-raw,format=I420"
        var kept: [String] = []
        if configuration.capturesPhotos {
            kept.append("queue max-size-buffers=2 max-size-bytes=0 max-size-time=0 "
                + "! appsink \(SessionElement.cameraJPEGs.assignment) sync=false max-buffers=1 drop=true wait-on-eos=false")
        }
        if passesCameraJPEGsLive {
            kept.append("queue leaky=downstream max-size-buffers=1 max-size-bytes=0 max-size-time=0 "
                + "! appsink \(SessionElement.cameraLiveJPEGs.assignment) sync=false async=false max-buffers=1 drop=true wait-on-eos=false")
        }
        guard !kept.isEmpty else { return decode }
        return " ! tee \(SessionElement.cameraJPEGSplit.assignment)" + decode
            + kept.map { " \(SessionElement.cameraJPEGSplit.rawValue). ! " + $0 }.joined()
    }

    /// Whether the live JPEG frames are the camera's own JPEGs, passed on without a decode and a
    /// second encode: an MJPEG camera whose frames fit the live size, with nothing that changes
    /// their pixels, their size or their turn.
    var passesCameraJPEGsLive: Bool {
        guard let live = configuration.liveJPEG, format.mediaType == "image/jpeg" else { return false }
        return format.width <= live.maximumWidth && format.height <= live.maximumHeight && !image.changesPixels
            && configuration.filters.isEmpty && image.previewOrientationMethod == "none"
    }

    /// Whether a file is a still picture rather than a video, by its extension.
    static func isStillImage(_ path: String) -> Bool {
        ["jpg", "jpeg", "png", "bmp", "gif", "tif", "tiff", "webp", "pnm", "ppm"]
            .contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }
}
