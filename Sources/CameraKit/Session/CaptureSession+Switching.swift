import FoundationEssentials
import GStreamer

/// Switching cameras while running: the camera's bin swapped live, or the pipeline restarted on
/// the new camera when a live swap cannot be trusted or gives no frame.
extension CaptureSession {
    /// Switches to another camera while running, keeping the preview, the frame streams and the
    /// photo encoders (a phone's front/back switch). The first frames of the new camera are dropped
    /// as after a start.
    ///
    /// The old camera's branch is blocked at its pad, unlinked and stopped, and the new camera is
    /// linked in its place: no output is torn down, and no frame of the old camera is taken after
    /// the switch returns.
    public func switchDevice(to device: CaptureDevice) async throws(CaptureError) {
        guard let current = running else {
            configuration.device = device
            return
        }
        let previous = configuration.device, stops = stopCount
        // PipeWire's source in GStreamer 1.22 once crashed its thread when swapped in a running
        // pipeline: such a switch restarts the pipeline on the new camera. Any other is swapped
        // live, and restarted the same way when the new camera gives no frame in time.
        if !Self.restartsToSwitch(from: previous, to: device) {
            let counted = cameraFrames.load(ordering: .relaxed)
            try await swapCamera(in: current, to: device)
            if await framesFlow(after: counted, within: Self.switchDeadline) { return }
        }
        try await restart(on: device, insteadOf: previous, stopsBefore: stops)
    }

    /// How long a camera switched to has to give its first frame before the switch is made again
    /// by restarting the pipeline.
    static let switchDeadline = Duration.seconds(5)

    /// Whether a switch between these cameras restarts the pipeline instead of swapping the camera live.
    private static func restartsToSwitch(from old: CaptureDevice, to new: CaptureDevice) -> Bool {
        [old, new].contains { device in
            if case .system(_, "pipewire", _) = device.kind { true } else { false }
        }
    }

    /// Whether the camera gives a frame beyond the `counted` frames within `deadline`.
    private func framesFlow(after counted: Int, within deadline: Duration) async -> Bool {
        let end = ContinuousClock.now + deadline
        while ContinuousClock.now < end {
            if cameraFrames.load(ordering: .relaxed) > counted { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return cameraFrames.load(ordering: .relaxed) > counted
    }

    /// Switches by starting the pipeline anew on `device`; when it cannot start, starts it on
    /// `previous` again and says so. A stop asked since `stopsBefore` ends the switch, nothing started.
    private func restart(on device: CaptureDevice, insteadOf previous: CaptureDevice, stopsBefore: Int) async throws(CaptureError) {
        await tearDown(reason: CaptureError(.interrupted, "the camera was switched before the photo was taken"))
        configuration.device = device
        do throws(CaptureError) {
            try await launch(stopsBefore: stopsBefore)
            if let format = running?.format { eventStream.send(.switchedDevice(to: device.name, format: format)) }
        } catch {
            configuration.device = previous
            guard stopCount == stopsBefore else { throw error }
            do throws(CaptureError) {
                try await launch(stopsBefore: stopsBefore)
            } catch let again {
                await interrupt(again)
                throw CaptureError(.interrupted, "\(device.name) could not start (\(error.message)), and \(previous.name) could not start again (\(again.message))")
            }
            throw CaptureError(error.code, "\(device.name) could not start (\(error.message)); the session is back on \(previous.name)", remedy: error.remedy)
        }
    }

    /// Swaps the camera's bin in the running pipeline, the preview covered meanwhile with its last frame.
    private func swapCamera(in graph: Running, to device: CaptureDevice) async throws(CaptureError) {
        var current = graph
        var updated = configuration
        updated.device = device
        let format = try updated.resolvedFormat()
        let layout = layout(of: updated, format: format)
        let replacement = try layout.makeSource()
        let covered = await coverPreviewWithStill(of: self.layout(of: configuration, format: current.format))
        do {
            try await current.graph.replaceSource(with: replacement)
            outputs.cameraChanged(to: replacement, layout: layout)
            layout.dropFirstFrames(at: current.graph.split, firstKept: covered ? previewOutput.uncover : nil)
            if let look = current.graph.look { try layout.image.applyAdjustments(to: look) }  // the crop is in the new camera's pixels
            try await replacement.changeState(to: .playing)
        } catch {
            let failure = CaptureError(.interrupted, "\(device.name) could not start: \(error)")
            await interrupt(failure)
            throw failure
        }
        current.description = layout.description
        current.format = format
        running = current
        configuration = updated
        eventStream.send(.switchedDevice(to: device.name, format: format))
        watchHotPlug()
    }

    /// Covers the preview with the camera's last frame mirrored, as the preview shows it, for the
    /// window to hold while the camera is switched (as a camera app flips its preview); `false`
    /// when the preview has no picture element or there is no frame yet.
    private func coverPreviewWithStill(of layout: SessionPipeline) async -> Bool {
        guard let preview = layout.configuration.preview, preview.showsLastPhoto || preview.showsPictures else { return false }
        let size = PreviewOutput.shownSize(layout.image, previewOutput.drawn(preview))
        guard let still = await photoOutput.still(width: size.width, height: size.height, turn: layout.image.previewFlipMethod) else {
            return false
        }
        return await previewOutput.cover(with: still)
    }
}
