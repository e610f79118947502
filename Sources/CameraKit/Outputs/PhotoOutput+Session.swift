import GStreamer

extension PhotoOutput: SessionOutput {
    /// A short queue and an app sink that keeps the newest frame, which a photo takes.
    func branch(in layout: SessionPipeline) -> String? {
        guard layout.configuration.capturesPhotos else { return nil }
        return "split. ! queue name=stills_queue max-size-buffers=2 max-size-bytes=0 max-size-time=0 "
            + "! appsink \(SessionElement.stills.assignment) sync=false max-buffers=1 drop=true wait-on-eos=false"
    }

    /// Readies the session's encoders, each started on its first use (a session without photos
    /// still makes its movies' thumbnails with them).
    func prepare(for layout: SessionPipeline) async throws(CaptureError) {
        let encoders = PhotoEncoders()
        if layout.configuration.capturesPhotos {
            startEncoders(for: preparedSettings.withLock { $0 }, on: encoders, framing: Framing(layout))
        }
        keep(prepared: encoders)
    }

    /// Keeps frames from the still branch (and an MJPEG camera's own JPEGs) from the first one on.
    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) {
        guard layout.configuration.capturesPhotos else { return }
        settling.reset(layout.configuration.exposureSettling)
        try graph.appSink(.stills).setHandlers(onSample: { [self] in receive($0) })
        feed.open()
        takeCameraJPEGs(of: graph.source)
    }

    /// Lets photos be taken, now that the camera runs and the encoders are ready.
    func activate(in graph: SessionGraph, layout: SessionPipeline) {
        let configuration = layout.configuration
        attach { encoders in
            Attachment(encoders: encoders, clock: graph.pipeline, settlingTimeout: configuration.exposureSettling?.timeout,
                       deviceName: configuration.device.name, flash: Self.flash(of: configuration.device),
                       framing: Framing(layout), takesPhotos: configuration.capturesPhotos)
        }
    }

    /// Takes photos of the new camera only, once its picture has settled.
    func cameraChanged(to source: Bin, layout: SessionPipeline) {
        let device = layout.configuration.device
        retarget(deviceName: device.name, framing: Framing(layout), flash: Self.flash(of: device))
        settling.reset(layout.configuration.exposureSettling)
        takeCameraJPEGs(of: source)
    }

    /// Makes photos wait for frames made with the new image settings: the second frame to reach
    /// the tee after the change (the first may have been in an element while it changed). A camera
    /// that sends no frame for a second does not hold the change up.
    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) {
        if let pad = graph.split.staticPad(named: "sink"),
           let time = await pad.presentationTime(ofBuffer: 2, waitingAtMost: .seconds(1)) {
            feed.refuseFrames(before: time)
        }
        reframe(Framing(layout))
    }

    /// Stops the encoders of a session that stopped once the captures still encoding have
    /// finished with them (an encoder started on a photo's first use may still be starting).
    func finish() async {
        recentSnapshot.forget()
        await capturesEnded()
        for encoders in retiredEncoders() { await encoders.stop() }
    }

    /// Hands an MJPEG camera's own JPEG frames to the output.
    private func takeCameraJPEGs(of source: Bin) {
        guard let sink = source.element(named: SessionElement.cameraJPEGs.rawValue, as: AppSink.self) else { return }
        sink.setHandlers(onSample: { [self] in receiveCameraJPEG($0) })
    }

    /// The flash of a V4L2 camera whose driver has flash controls.
    private static func flash(of device: CaptureDevice) -> Flash? {
        guard case .system(let path?, "v4l2", _) = device.kind, path.hasPrefix("/dev/") else { return nil }
        return Flash(devicePath: path)
    }
}
