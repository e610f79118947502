import GStreamer

/// How the branches that show the picture as the preview does (the preview itself, the live JPEG
/// and H.264 frames) fit it: scaled into their size, then turned and mirrored as the preview is.
enum PreviewFit {
    /// The head of a live branch (frames for clients, encoded only while one receives): a queue
    /// that keeps only the newest frame, the valve shut while nobody receives, then the fit and turn.
    static func liveBranchHead(valve: SessionElement, size: SessionElement, orientation: SessionElement, shut: Bool,
                               caps: String, image: ImageStage) -> String {
        "split. ! queue leaky=downstream max-size-buffers=1 max-size-bytes=0 max-size-time=0 "
            + "! valve \(valve.assignment) drop=\(shut) ! " + elements(size: size, orientation: orientation, caps: caps, image: image)
    }

    /// A live branch's size: the image stage's picture fitted into the largest size asked for.
    static func liveCaps(_ image: ImageStage, maximumWidth: Int, maximumHeight: Int) -> String {
        PreviewOutput.previewCaps(image, PreviewConfiguration(maximumWidth: maximumWidth, maximumHeight: maximumHeight))
    }

    /// The elements, in gst-launch syntax, with the capsfilter and `videoflip` named.
    static func elements(size: SessionElement, orientation: SessionElement, caps: String, image: ImageStage) -> String {
        "videoscale ! videoconvert ! capsfilter \(size.assignment) caps=\"\(caps)\" "
            + "! videoflip \(orientation.assignment) video-direction=\(ExifOrientation.direction(ofMethod: image.previewOrientationMethod))"
    }

    /// Sets the running branch's size and turn to new image settings, its flow held at its valve
    /// meanwhile: a frame between the scaler and the converter when the size changed would meet a
    /// converter that cannot scale, and fail negotiation.
    static func apply(to graph: SessionGraph, valve: SessionElement, size: SessionElement, orientation: SessionElement,
                      caps: String, image: ImageStage) async throws(CaptureError) {
        let hold = await (try graph.element(valve)).staticPad(named: "sink")?.block(waitingAtMost: SessionGraph.holdWait)
        defer { hold?.remove() }
        do {
            try graph.element(size).setProperty("caps", .string(caps))
            try graph.element(orientation).setProperty("method", .string(image.previewOrientationMethod))
        } catch {
            throw CaptureError.converting(error, context: "the picture could not be fitted to the new settings")
        }
    }
}
