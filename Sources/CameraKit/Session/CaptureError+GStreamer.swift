import GStreamer

extension CaptureError {
    /// Turns a pipeline failure into what it means for a camera user.
    init(_ error: GStreamerError, device: CaptureDevice, preview: PreviewConfiguration?) {
        let camera = device.name
        let english = GStreamerMessageText.match(error)
        if let preview, english == .noXVideo {
            self.init(.sinkUnavailable,
                "\(preview.sink) cannot show the preview: this display has no XVideo support (Xvfb has none)",
                remedy: .useSink(["ximagesink", "autovideosink"]), debugInfo: error.debugInfo)
        } else if preview != nil, english == .noDisplay {
            self.init(.sinkUnavailable,
                "the preview window cannot open: no X display is available (is DISPLAY set?)",
                remedy: .needsDisplay, debugInfo: error.debugInfo)
        } else if error.kind == .missingElement, let preview, let sink = preview.sink.split(separator: " ").first,
                  (error.message + " " + (error.debugInfo ?? "")).contains(sink) {
            self.init(.sinkUnavailable,
                "there is no video sink called \"\(preview.sink)\"; use autovideosink, ximagesink, xvimagesink or fakesink",
                debugInfo: error.debugInfo)
        } else if error.element == SessionElement.drawing.rawValue {
            self.init(.unreadableFile, "the drawing laid over the picture could not be decoded; it is a damaged PNG",
                      debugInfo: error.debugInfo)
        } else if let report = error.report, report.domain == .resource, error.element == "camera" {
            switch report.code {
            case Message.Report.ResourceCode.busy:
                self.init(.deviceBusy, "\(camera) is busy: another program is using it; close that program and try again",
                          debugInfo: error.debugInfo)
            case Message.Report.ResourceCode.notAuthorized:
                self.init(.permissionDenied,
                    "you may not open \(camera); add yourself to the video group (sudo usermod -aG video $USER) and log in again",
                    debugInfo: error.debugInfo)
            case Message.Report.ResourceCode.notFound:
                self.init(.deviceNotFound, "\(camera) is gone; check that it is plugged in",
                          remedy: .listCameras, debugInfo: error.debugInfo)
            default:
                self.init(.interrupted, "\(camera) failed: \(error.message)", debugInfo: error.debugInfo)
            }
        } else if error.kind == .negotiation {
            self.init(.formatUnavailable, "\(camera) could not deliver the format asked for",
                      remedy: .listFormats, debugInfo: error.debugInfo)
        } else if error.kind == .timeout {
            self.init(.timeout, "\(camera) did not start within the time allowed; check that it works in another program",
                      debugInfo: error.debugInfo)
        } else {
            self.init(.pipeline, error.description, debugInfo: error.debugInfo)
        }
    }
}

extension CaptureError {
    /// Any error met while driving GStreamer, as a capture error: ours pass through, GStreamer's
    /// are explained for the camera (when one is given), anything else becomes a pipeline failure.
    static func converting(_ error: any Error, context: String, device: CaptureDevice? = nil,
                           preview: PreviewConfiguration? = nil) -> CaptureError {
        switch error {
        case let error as CaptureError:
            return error
        case let error as GStreamerError:
            guard let device else { return CaptureError(.pipeline, "\(context): \(error.description)", debugInfo: error.debugInfo) }
            return CaptureError(error, device: device, preview: preview)
        default:
            return CaptureError(.pipeline, "\(context): \(error)")
        }
    }
}
