import GStreamer

/// How the branches that show the picture as the preview does (the preview itself, the live JPEG
/// frames) fit it: scaled into their size, then turned and mirrored as the preview is.
enum PreviewFit {
    /// The elements, in gst-launch syntax, with the capsfilter and `videoflip` named.
    static func elements(size: SessionElement, orientation: SessionElement, caps: String, image: ImageStage) -> String {
        "videoscale ! videoconvert ! capsfilter \(size.assignment) caps=\"\(caps)\" "
            + "! videoflip \(orientation.assignment) video-direction=\(ExifOrientation.direction(ofMethod: image.previewOrientationMethod))"
    }

    /// Sets the running branch's size and turn to new image settings.
    static func apply(to graph: SessionGraph, size: SessionElement, orientation: SessionElement, caps: String,
                      image: ImageStage) throws(CaptureError) {
        do {
            try graph.element(size).setProperty("caps", .string(caps))
            try graph.element(orientation).setProperty("method", .string(image.previewOrientationMethod))
        } catch {
            throw CaptureError.converting(error, context: "the picture could not be fitted to the new settings")
        }
    }
}
