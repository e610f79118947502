import GStreamer

/// How a running session is interrupted: its camera unplugged (hot-plug), gone silent or ended,
/// or its pipeline failed; it tears down, tells why, and resumes by itself when configured to.
extension CaptureSession {
    /// Watches cameras come and go while the session's camera is a system camera: each change is
    /// an event, the loss of the session's own camera interrupts it, and an arrival wakes a
    /// waiting ``resume(waitingAtMost:acceptingOtherCameras:)``.
    func watchHotPlug() {
        guard configuration.watchesCameras, case .system = configuration.device.kind else { return }
        supervisor.watchHotPlug(reportingTo: eventStream) { [weak self] camera in await self?.cameraRemoved(camera) }
    }

    func cameraRemoved(_ camera: CaptureDevice) async {
        guard camera.id == configuration.device.id, running != nil else { return }
        await interrupt(.disconnected(camera))
    }

    func tearDown(reason: CaptureError) async {
        guard let current = running else { return }
        running = nil
        current.monitor?.cancel()
        current.stallWatch?.cancel()
        photoOutput.cameraShutter.withLock { $0 = nil }
        outputs.detach(reason)
        await current.gphoto2?.close()
        try? await current.graph.pipeline.stop()
        await outputs.finish()
    }

    /// The running camera ended its stream, or went silent.
    func cameraLost(_ failure: CaptureError) async {
        guard running != nil else { return }
        await interrupt(failure)
    }

    /// An element posted an error while running: the camera was lost, or the preview window closed.
    func pipelineFailed(_ error: GStreamerError) async {
        guard running != nil else { return }
        if GStreamerMessageText.match(error) == .windowClosed {
            await stop()
            return
        }
        await interrupt(CaptureError(error, device: configuration.device, preview: configuration.preview))
    }

    func interrupt(_ failure: CaptureError) async {
        await tearDown(reason: failure)
        status = .interrupted
        eventStream.send(.interrupted(failure))
        if configuration.resumesAutomatically {
            Task { [weak self] in try? await self?.resume() }
        }
    }
}
