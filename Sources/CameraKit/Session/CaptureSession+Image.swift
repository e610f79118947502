import FoundationEssentials
import GStreamer

/// Changing the picture while running: filters, colour, zoom, crop, mirroring, rotation and the
/// green screen's background, without restarting the camera.
extension CaptureSession {
    /// Changes the filters, colour adjustments, zoom, aspect ratio, mirroring and rotation; a
    /// running session changes its elements' properties, and swaps its filters' bin, without
    /// restarting the camera. Photos taken from then on have the new look, size and orientation.
    public func changeImage(to image: ImageSettings) async throws(CaptureError) {
        try image.validate()
        // The session may stop, or its pipeline be made anew (a camera back after a stall, a
        // switch), while a change waits: a pipeline replaced meanwhile gets the change in turn.
        for _ in 0..<3 {
            guard let current = running else {
                configuration.image = image
                return
            }
            if try await change(current.graph, to: image, format: current.format) { return }
        }
        throw CaptureError(.notRunning, "the camera restarted again and again while its image settings were being changed")
    }

    /// Changes a running pipeline's picture; false when the session made another pipeline meanwhile.
    private func change(_ graph: SessionGraph, to image: ImageSettings, format: CaptureFormat) async throws(CaptureError) -> Bool {
        var updated = configuration
        updated.image = image
        let layout = layout(of: updated, format: format)
        let stage = layout.image
        func stillRunning() throws(CaptureError) -> Bool {
            guard let running else { throw CaptureError(.notRunning, "the session stopped while its image settings were being changed") }
            return running.graph.pipeline === graph.pipeline
        }
        // Everything that can be refused (a background, a look) is made before the pipeline is touched.
        let changesElements = !stage.buildsSameElements(as: self.layout(of: configuration, format: format).image)
        let look = changesElements ? try ImageLook.make(stage, backdrop: try await backdrop(for: stage)) : nil  // none when neutral
        guard try stillRunning() else { return false }
        do throws(CaptureError) {
            if changesElements {
                try await ImageLook.replace(graph.look, with: look, in: graph)
                guard try stillRunning() else { return false }
                running?.graph.look = look
            } else {
                try await graph.look?.adjust(to: stage, after: graph.lookInput)
            }
            try await outputs.imageChanged(in: graph, layout: layout)
        } catch {
            // Part of the change may be in the pipeline: it is made anew from the settings as they
            // were, so the picture is exactly the one before the change.
            if running?.graph.pipeline === graph.pipeline { await relaunchAsConfigured() }
            throw error
        }
        guard try stillRunning() else { return false }
        running?.description = layout.description
        configuration.image = image
        return true
    }

    /// Starts the pipeline anew from the configuration; the session is interrupted when it cannot.
    private func relaunchAsConfigured() async {
        let stops = stopCount
        await tearDown(reason: CaptureError(.interrupted, "the picture was changed before the photo was taken"))
        do throws(CaptureError) {
            try await launch(stopsBefore: stops)
        } catch {
            if stopCount == stops { await interrupt(error) }
        }
    }

    /// The green screen's background at the stage's picture size, or `nil` without a green screen;
    /// decoded once for a picture and size, then kept while they stay.
    func backdrop(for stage: ImageStage) async throws(CaptureError) -> Backdrop? {
        guard let greenScreen = stage.settings.greenScreen else {
            decodedBackdrop = nil
            return nil
        }
        let (width, height) = stage.outputSize
        if let kept = decodedBackdrop, kept.path == greenScreen.path, kept.backdrop.width == width, kept.backdrop.height == height {
            return kept.backdrop
        }
        let backdrop = try await greenScreen.backdrop(width: width, height: height)
        decodedBackdrop = (greenScreen.path, backdrop)
        return backdrop
    }
}
