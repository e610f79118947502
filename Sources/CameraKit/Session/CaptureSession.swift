import Foundation
import Dispatch
import GStreamer
import Synchronization

/// The coordinator of a camera, its outputs and its pipeline, as AVCaptureSession.
///
/// Configuration changes are batched by ``configure(_:)`` and applied at once; ``start()`` and
/// ``stop()`` never block the caller's thread. GStreamer's streaming threads never touch the
/// actor: they feed the outputs through lock-protected queues and streams.
///
/// ```swift
/// let session = CaptureSession()
/// try await session.configure { $0.device = .testCamera(); $0.format = .high }
/// try await session.start()
/// let photo = try await session.photoOutput.capture()
/// await session.stop()
/// ```
public actor CaptureSession {
    /// Where the session is in its life.
    public enum Status: Sendable, Equatable {
        case stopped, running, interrupted, failed
    }

    /// Takes photos.
    public nonisolated let photoOutput = PhotoOutput()
    /// Delivers frames to Swift code.
    public nonisolated let videoDataOutput = VideoDataOutput()
    /// Shows the preview.
    public nonisolated let previewOutput = PreviewOutput()

    /// The configuration in force.
    public private(set) var configuration: SessionConfiguration
    /// Where the session is in its life.
    public private(set) var status: Status = .stopped

    private var running: Running?
    private let eventStream = Broadcast<SessionEvent>()
    /// Relays hot-plug changes while a session on a system camera runs or waits to resume.
    private var hotPlugWatch: (watch: CameraWatch, relay: Task<Void, Never>)?
    /// How many cameras were plugged in since the watch began; a waiting resume looks again when it grows.
    private var cameraArrivals = 0

    /// What exists while the session runs.
    private struct Running {
        let pipeline: Pipeline
        /// The camera's bin, linked to the tee.
        var source: Bin
        /// The filters' bin, between the colour adjustments and the tee.
        var look: ImageLook
        var description: String
        var format: CaptureFormat
        /// Watches the bus once the pipeline runs.
        var monitor: Task<Void, Never>?
        /// Notices a system camera that stops sending frames without saying so.
        var stallWatch: Task<Void, Never>?
    }

    /// Makes a session with a configuration; nothing runs until ``start()``.
    public init(configuration: SessionConfiguration = SessionConfiguration()) {
        self.configuration = configuration
    }

    /// The session's events from now on.
    public nonisolated func events(bufferingNewest limit: Int = 64) -> AsyncStream<SessionEvent> {
        eventStream.subscribe(bufferingNewest: limit)
    }

    /// The format the camera runs at, while running.
    public var activeFormat: CaptureFormat? { running?.format }

    /// Applies configuration changes together: the closure edits a copy, and the copy replaces the
    /// configuration only if the closure returns. A running session restarts with the new one;
    /// the outputs and their streams stay.
    ///
    /// - Throws: What the closure throws, or a ``CaptureError`` when the new configuration cannot run
    ///   (the session then keeps the old configuration and reports `failed`).
    public func configure(_ change: (inout SessionConfiguration) throws -> Void) async throws {
        var updated = configuration
        try change(&updated)
        try await apply(updated)
    }

    private func apply(_ updated: SessionConfiguration) async throws(CaptureError) {
        guard updated != configuration else { return }
        var sameButDevice = updated, sameButImage = updated
        sameButDevice.device = configuration.device
        sameButImage.image = configuration.image
        if running != nil, sameButDevice == configuration {
            try await switchDevice(to: updated.device)
            return
        }
        if sameButImage == configuration {
            try await changeImage(to: updated.image)
            return
        }
        try updated.image.validate()
        guard running != nil else {
            configuration = updated
            return
        }
        let previous = configuration
        await tearDown(reason: CaptureError(.notRunning, "the session was reconfigured while the photo was being taken"))
        configuration = updated
        do {
            try await launch()
            eventStream.send(.reconfigured)
        } catch {
            configuration = previous
            status = .failed
            eventStream.send(.failed(error))
            throw error
        }
    }

    /// Switches to another camera while running, keeping the preview, the frame streams and the
    /// photo encoders (a phone's front/back switch). The first frames of the new camera are dropped
    /// as after a start.
    ///
    /// The old camera's branch is blocked at its pad, unlinked and stopped, and the new camera is
    /// linked in its place: no output is torn down, and no frame of the old camera is taken after
    /// the switch returns.
    public func switchDevice(to device: CaptureDevice) async throws(CaptureError) {
        guard var current = running else {
            configuration.device = device
            return
        }
        var updated = configuration
        updated.device = device
        let format = try resolveFormat(for: updated)
        let layout = SessionPipeline(configuration: updated, format: format)
        let replacement = try makeSource(layout, device: device, preview: updated.preview)
        guard let tee = current.pipeline.element(named: SessionPipeline.cameraInput), let teeInput = tee.staticPad(named: "sink"),
              let oldOutput = current.source.staticPad(named: "src") else {
            throw CaptureError(.pipeline, "the session's pipeline lacks its camera link")
        }
        let hold = await oldOutput.block(waitingAtMost: .seconds(1))
        oldOutput.unlink(from: teeInput)
        try? await current.source.changeState(to: .null)
        hold.remove()
        try? current.pipeline.remove(current.source)
        photoOutput.feed.open()  // forget the old camera's frames
        photoOutput.settling.reset(updated.exposureSettling)
        do {
            try current.pipeline.add(replacement)
            try replacement.link(to: tee)
            attachCameraJPEGs(of: replacement)
            dropFirstFrames(of: current.pipeline, count: updated.framesDroppedAfterStart)
            try layout.image.applyAdjustments(to: current.pipeline)  // the crop is in the new camera's pixels
            try await replacement.changeState(to: .playing)
        } catch {
            let failure = CaptureError(.interrupted, "\(device.name) could not start: \(error.message)", debugInfo: error.debugInfo)
            await interrupt(failure)
            throw failure
        }
        photoOutput.retarget(deviceName: device.name, framing: PhotoOutput.Framing(layout), flash: Self.flash(of: device))
        current.source = replacement
        current.description = layout.description
        current.format = format
        running = current
        configuration = updated
        eventStream.send(.switchedDevice(to: device.name, format: format))
        watchHotPlug()
    }

    /// Changes the filters, colour adjustments, zoom, aspect ratio, mirroring and rotation; a
    /// running session changes its elements' properties, and swaps its filters' bin, without
    /// restarting the camera. Photos taken from then on have the new look, size and orientation.
    public func changeImage(to image: ImageSettings) async throws(CaptureError) {
        try image.validate()
        guard let current = running else {
            configuration.image = image
            return
        }
        var updated = configuration
        updated.image = image
        let layout = SessionPipeline(configuration: updated, format: current.format)
        let stage = layout.image
        // The session may stop, or switch cameras, while this waits: what it then changes is
        // checked against the pipeline it started with.
        let pipeline = current.pipeline
        func stillRunning() throws(CaptureError) {
            guard running?.pipeline === pipeline else {
                throw CaptureError(.notRunning, "the session stopped while its image settings were being changed")
            }
        }
        if image.filters != configuration.image.filters || image.overlay != configuration.image.overlay {
            let look = try ImageLook(stage)
            try await look.replace(current.look, in: pipeline)
            try stillRunning()
            running?.look = look
        }
        // The crop's four sides are set one by one: the flow is held meanwhile, so no frame meets a
        // crop half changed (a frame cropped on one side only failed negotiation at the camera).
        let hold = await pipeline.element(named: ImageStage.crop)?.staticPad(named: "sink")?.block(waitingAtMost: .seconds(1))
        do {
            defer { hold?.remove() }
            try stage.applyAdjustments(to: pipeline)
            if let preview = updated.preview {
                try pipeline.element(named: SessionPipeline.previewSize)?
                    .setProperty("caps", .string(SessionPipeline.previewCaps(stage, preview)))
                try pipeline.element(named: ImageStage.previewOrientation)?
                    .setProperty("method", .string(stage.previewOrientationMethod))
            }
        } catch {
            throw CaptureError.converting(error, context: "the image settings could not be changed")
        }
        await refuseFramesBeforeChange(in: pipeline)
        try stillRunning()
        photoOutput.reframe(PhotoOutput.Framing(layout))
        running?.description = layout.description
        configuration.image = image
    }

    /// Makes photos wait for frames made with the new image settings: the second frame to reach
    /// the tee after the change (the first may have been in an element while it changed). A camera
    /// that sends no frame for a second does not hold the change up.
    private func refuseFramesBeforeChange(in pipeline: Pipeline) async {
        guard let pad = pipeline.element(named: "split")?.staticPad(named: "sink"),
              let time = await pad.presentationTime(ofBuffer: 2, waitingAtMost: .seconds(1)) else { return }
        photoOutput.feed.refuseFrames(before: time)
    }

    /// The pipeline the configuration makes, in gst-launch syntax, without starting it.
    public func pipelineDescription() throws(CaptureError) -> String {
        if let running { return running.description }
        return SessionPipeline(configuration: configuration, format: try resolveFormat(for: configuration)).description
    }

    /// Starts the camera and the outputs; returns once frames flow.
    ///
    /// - Throws: A ``CaptureError`` that says what is wrong: no such camera, busy, no permission,
    ///   no such format, a sink that cannot open.
    public func start() async throws(CaptureError) {
        guard running == nil else { return }
        do {
            try await launch()
        } catch {
            status = .failed
            eventStream.send(.failed(error))
            throw error
        }
    }

    /// Stops the camera and the outputs. Captures still encoding finish; those waiting for a frame fail.
    public func stop() async {
        stopWatchingHotPlug()
        guard running != nil else { return }
        await tearDown(reason: CaptureError(.notRunning, "the session stopped before the photo was taken"))
        status = .stopped
        eventStream.send(.stopped)
    }

    /// Restarts an interrupted session with the same settings once its camera is back (or, when
    /// `acceptingOtherCameras`, once any camera is attached); reports `resumed`.
    ///
    /// It looks whenever the device monitor reports a camera plugged in, and every two seconds
    /// for cameras the monitor does not report (files, device nodes).
    ///
    /// - Throws: A ``CaptureError`` when no camera came back in time, or it cannot start.
    public func resume(waitingAtMost timeout: Duration = .seconds(30),
                       acceptingOtherCameras: Bool = false) async throws(CaptureError) {
        guard status == .interrupted || status == .failed else { return }
        let deadline = ContinuousClock.now + timeout
        while true {
            let arrivalsSeen = cameraArrivals
            do {
                if let camera = availableCamera(acceptingOthers: acceptingOtherCameras) {
                    configuration.device = camera
                    try await launch()
                    status = .running
                    eventStream.send(.resumed)
                    return
                }
            } catch where [.deviceNotFound, .deviceBusy, .noCamera, .interrupted].contains(error.code)
                && ContinuousClock.now < deadline {
                // Not back yet, or still held by another program: wait and try again.
            }
            guard ContinuousClock.now < deadline else {
                throw CaptureError(.deviceNotFound,
                    "\(configuration.device.name) did not come back within \(timeout); check that it is connected")
            }
            let nextLook = min(deadline, ContinuousClock.now + .seconds(2))
            while cameraArrivals == arrivalsSeen, ContinuousClock.now < nextLook {
                try? await Task.sleep(for: .milliseconds(100))
            }
            guard status == .interrupted || status == .failed else { return }  // stopped or restarted meanwhile
        }
    }

    /// The session's camera as attached now, or with `acceptingOthers` the first camera attached.
    private func availableCamera(acceptingOthers: Bool) -> CaptureDevice? {
        if let camera = DeviceDiscovery.current(configuration.device) { return camera }
        guard acceptingOthers else { return nil }
        return (try? DeviceDiscovery.systemDevices())?.first
    }

    // MARK: - Hot-plug

    /// Watches cameras come and go while the session's camera is a system camera: each change is
    /// an event, the loss of the session's own camera interrupts it, and an arrival wakes a
    /// waiting ``resume(waitingAtMost:acceptingOtherCameras:)``.
    private func watchHotPlug() {
        guard hotPlugWatch == nil, configuration.watchesCameras, case .system = configuration.device.kind,
              let watch = try? CameraWatch() else { return }
        let relay = Task { [weak self] in
            for await change in watch.changes {
                await self?.cameraChanged(change)
            }
        }
        hotPlugWatch = (watch, relay)
    }

    private func stopWatchingHotPlug() {
        hotPlugWatch?.watch.stop()
        hotPlugWatch?.relay.cancel()
        hotPlugWatch = nil
    }

    private func cameraChanged(_ change: CameraWatch.Change) async {
        switch change {
        case .added(let camera):
            cameraArrivals += 1
            eventStream.send(.cameraAdded(camera))
        case .removed(let camera):
            eventStream.send(.cameraRemoved(camera))
            if camera.id == configuration.device.id, running != nil {
                await interrupt(CaptureError(.interrupted,
                    "\(camera.name) was disconnected; connect it again, or choose another camera"))
            }
        }
    }

    // MARK: - Running the pipeline

    private func resolveFormat(for configuration: SessionConfiguration) throws(CaptureError) -> CaptureFormat {
        let device = configuration.device
        switch device.kind {
        case .testPattern, .system:
            let capabilities = device.capabilities.isEmpty ? CaptureDevice.testCamera().capabilities : device.capabilities
            var request = configuration.format
            if case .testPattern = device.kind, request.width == nil {
                request = FormatRequest(width: 4032, height: 3024, frameRate: request.frameRate ?? Fraction(15))
            }
            return try FormatSelection.choose(for: request, from: capabilities, camera: device.name)
        case .file(let path):
            // No size asked for (the photo preset): the file's own size, as a camera's largest.
            let request = configuration.format
            let own = request.width == nil ? (try? MediaInfo(path: path))?.videoSize : nil
            return CaptureFormat(width: request.width ?? own?.width ?? 1920, height: request.height ?? own?.height ?? 1080,
                                 frameRate: request.frameRate ?? Fraction(30))
        case .custom:
            let request = configuration.format
            return CaptureFormat(width: request.width ?? 1920, height: request.height ?? 1080, frameRate: request.frameRate ?? Fraction(30))
        }
    }

    private func launch(attempt: Int = 1) async throws(CaptureError) {
        let format = try resolveFormat(for: configuration)
        let layout = SessionPipeline(configuration: configuration, format: format)
        let device = configuration.device
        let preview = configuration.preview
        // The JPEG encoders start while the camera's pipeline is built and started: each is ready
        // for the first photo, and neither delays the first frame. A start that fails stops them.
        let capturesPhotos = configuration.capturesPhotos
        let startedEncoders = Task { () async throws -> Encoders? in
            capturesPhotos ? try await Self.startEncoders() : nil
        }
        let pipeline: Pipeline, source: Bin, look: ImageLook
        do {
            pipeline = try Pipeline(describing: layout.outputs)
            source = try makeSource(layout, device: device, preview: preview)
            try pipeline.add(source)
            guard let tee = pipeline.element(named: SessionPipeline.cameraInput) else {
                throw CaptureError(.pipeline, "the session's pipeline has no tee")
            }
            try source.link(to: tee)
            look = try ImageLook(layout.image)
            try look.insert(into: pipeline)
        } catch {
            await Self.stop(startedEncoders)
            throw CaptureError.converting(error, context: "the pipeline could not be built", device: device, preview: preview)
        }
        dropFirstFrames(of: pipeline, count: configuration.framesDroppedAfterStart)
        if attempt == 1 { eventStream.send(.started(device: device.name, format: format)) }
        attachOutputs(to: pipeline)
        // Subscribed before the start, read after it: what the pipeline says while starting is the
        // start's to report; what it says later (the camera lost, a window closed) is the monitor's.
        let messages = pipeline.messages()
        running = Running(pipeline: pipeline, source: source, look: look, description: layout.description, format: format)
        // A file camera starts in well under a second, but about one start in fifty under heavy load
        // never prerolls (a race inside GStreamer 1.22's decodebin we have not pinned down): such a
        // start is given up after a few seconds and made once more.
        let isFile = if case .file = device.kind { true } else { false }
        do {
            try await pipeline.play(timeout: isFile && attempt == 1 ? .seconds(5) : .seconds(15))
        } catch {
            await tearDown(reason: CaptureError(.notRunning, "the session did not start"))
            await Self.stop(startedEncoders)
            if isFile, attempt == 1, error.kind == .timeout {
                try await launch(attempt: 2)
                return
            }
            throw CaptureError(error, device: device, preview: preview)
        }
        do {
            if let encoders = try await startedEncoders.value {
                attachPhotoEncoders(encoders, clock: pipeline, device: device, framing: PhotoOutput.Framing(layout))
            }
        } catch {
            await tearDown(reason: CaptureError(.notRunning, "the session did not start"))
            throw CaptureError.converting(error, context: "the JPEG encoders could not start")
        }
        running?.monitor = Task { [weak self] in
            for await message in messages {
                switch message {
                case .error(let report):
                    await self?.pipelineFailed(GStreamerError(report))
                    return
                case .endOfStream:
                    await self?.cameraEnded()
                    return
                default:
                    continue
                }
            }
        }
        status = .running
        eventStream.send(.running)
        watchHotPlug()
        watchForStalls(of: pipeline, device: device, format: format)
    }

    /// A system camera that stops sending frames without an error or end of stream (a PipeWire
    /// node that went away leaves pipewiresrc waiting) interrupts the session after a silence of
    /// two seconds, or three frame intervals when frames come slower.
    private func watchForStalls(of pipeline: Pipeline, device: CaptureDevice, format: CaptureFormat) {
        guard case .system = device.kind, let pad = pipeline.element(named: SessionPipeline.cameraInput)?.staticPad(named: "sink") else { return }
        let lastFrame = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
        pad.addProbe(.buffer) { _ in
            lastFrame.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            return .pass
        }
        let limit = UInt64(max(2.0, 3 / max(0.1, format.frameRate.doubleValue)) * 1e9)
        running?.stallWatch = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                let silence = DispatchTime.now().uptimeNanoseconds &- lastFrame.load(ordering: .relaxed)
                if silence > limit, !Task.isCancelled {
                    await self?.cameraStalled()
                    return
                }
            }
        }
    }

    private func cameraStalled() async {
        guard running != nil else { return }
        await interrupt(CaptureError(.interrupted,
            "\(configuration.device.name) stopped sending frames (unplugged, or taken by another program); check the camera"))
    }

    /// The camera as a bin with one source pad.
    private func makeSource(_ layout: SessionPipeline, device: CaptureDevice,
                            preview: PreviewConfiguration?) throws(CaptureError) -> Bin {
        do {
            if case .file(let path) = device.kind {
                return try makeFileSource(path, layout: layout)
            }
            let source = try Bin(fragment: layout.source)
            try expose(SessionPipeline.sourceOutput, "src", of: source)
            return source
        } catch {
            throw CaptureError.converting(error, context: "the camera's pipeline could not be built", device: device, preview: preview)
        }
    }

    /// A file read as a camera: the same elements as ``SessionPipeline/source`` writes, but the
    /// decoder's video pad is linked here, after the elements behind it are brought to the bin's
    /// state. (Left to gst-launch's delayed linking, the bin could start the file before those
    /// elements, and the decoder's first data met an inactive pad and stopped without an error.)
    private func makeFileSource(_ path: String, layout: SessionPipeline) throws -> Bin {
        let source = try Bin()
        let reader = try Element(factory: "filesrc", name: "camera")
        try reader.setProperty("location", path)
        let decoder = try Element(factory: "decodebin", name: SessionPipeline.fileDecoder)
        let decoded = try Bin(fragment: layout.decodedFile(path))
        try expose(SessionPipeline.fileDecoderOutput, "sink", of: decoded)
        try expose(SessionPipeline.sourceOutput, "src", of: decoded)
        try source.add(reader, decoder, decoded)
        try reader.link(to: decoder)
        guard let decodedInput = decoded.staticPad(named: "sink"), let decodedOutput = decoded.staticPad(named: "src") else {
            throw CaptureError(.pipeline, "the file camera's pipeline fragment has no input")
        }
        try source.exposePad(decodedOutput, as: "src")
        decoder.onPadAdded { pad in
            // No caps check before linking: a new pad's caps may not be known yet, and a check then
            // skipped the video pad now and then. The link itself refuses a pad that is not video.
            guard !decodedInput.isLinked else { return }
            try? decoded.syncStateWithParent()
            try? pad.link(to: decodedInput)
        }
        return source
    }

    /// Gives a bin the pad (`src` or `sink`) of one of its elements as its own.
    private func expose(_ elementName: String, _ padName: String, of bin: Bin) throws {
        guard let pad = bin.element(named: elementName)?.staticPad(named: padName) else {
            throw CaptureError(.pipeline, "the camera's pipeline fragment has no \(elementName)")
        }
        try bin.exposePad(pad, as: padName)
    }

    /// Throws away the first frames after a start or switch, before the tee, so every branch skips them.
    private func dropFirstFrames(of pipeline: Pipeline, count: Int) {
        guard count > 0, let pad = pipeline.element(named: "split")?.staticPad(named: "sink") else { return }
        let seen = Atomic<Int>(0)
        pad.addProbe(.buffer) { _ in
            seen.add(1, ordering: .relaxed).newValue > count ? .remove : .drop
        }
    }

    /// The photo and thumbnail encoders, started together.
    private static func startEncoders() async throws(CaptureError) -> Encoders {
        async let photo = started("photo")
        async let thumbnail = started("thumbnail")
        switch (await photo, await thumbnail) {
        case (.success(let photo), .success(let thumbnail)):
            return (photo, thumbnail)
        case (.failure(let error), let other), (let other, .failure(let error)):
            // The one that started is stopped: no encoder outlives a failed start.
            if case .success(let started) = other { await started.stop() }
            throw error
        }
    }

    private static func started(_ label: String) async -> Result<StillEncoder, CaptureError> {
        do {
            return .success(try await StillEncoder(label: label))
        } catch {
            return .failure(error)
        }
    }

    /// The photo's and the thumbnail's JPEG encoders.
    private typealias Encoders = (photo: StillEncoder, thumbnail: StillEncoder)

    /// Stops the encoders a failed start had started, once they have.
    private static func stop(_ start: Task<Encoders?, any Error>) async {
        guard let encoders = try? await start.value else { return }
        await encoders.photo.stop()
        await encoders.thumbnail.stop()
    }

    /// Connects the outputs' app sinks and valves, before the pipeline starts so no frame is missed.
    private func attachOutputs(to pipeline: Pipeline) {
        if configuration.capturesPhotos, let stills = pipeline.element(named: "stills", as: AppSink.self) {
            let output = photoOutput
            output.settling.reset(configuration.exposureSettling)
            stills.setHandlers(onSample: { output.receive($0) })
            output.open()
        }
        attachCameraJPEGs(of: pipeline)
        if let frames = pipeline.element(named: "frames", as: AppSink.self) {
            let output = videoDataOutput
            frames.setHandlers(onSample: { output.deliver($0) })
        }
        if let valve = pipeline.element(named: "preview_valve") {
            previewOutput.attach(valve: valve, textOverlay: pipeline.element(named: "preview_text"))
        }
    }

    /// Lets photos be taken, once the camera runs and the encoders are ready.
    private func attachPhotoEncoders(_ encoders: (photo: StillEncoder, thumbnail: StillEncoder), clock: Pipeline,
                                     device: CaptureDevice, framing: PhotoOutput.Framing) {
        photoOutput.attach(PhotoOutput.Attachment(
            photoEncoder: encoders.photo, thumbnailEncoder: encoders.thumbnail, clock: clock,
            settlingTimeout: configuration.exposureSettling?.timeout,
            deviceName: device.name, flash: Self.flash(of: device), hevcEncoders: HEVCEncoders(), framing: framing))
    }

    /// The flash of a V4L2 camera whose driver has flash controls.
    private static func flash(of device: CaptureDevice) -> Flash? {
        guard case .system(let path?, "v4l2", _) = device.kind, path.hasPrefix("/dev/") else { return nil }
        return Flash(devicePath: path)
    }

    /// Hands an MJPEG camera's own JPEG frames to the photo output.
    private func attachCameraJPEGs(of bin: Bin) {
        guard let sink = bin.element(named: SessionPipeline.cameraJPEGSink, as: AppSink.self) else { return }
        let output = photoOutput
        sink.setHandlers(onSample: { output.receiveCameraJPEG($0) })
    }

    private func tearDown(reason: CaptureError) async {
        guard let current = running else { return }
        running = nil
        current.monitor?.cancel()
        current.stallWatch?.cancel()
        previewOutput.detach()
        let attachment = photoOutput.detach(reason)
        try? await current.pipeline.stop()
        await attachment?.photoEncoder.stop()
        await attachment?.thumbnailEncoder.stop()
        await attachment?.hevcEncoders.stopAll()
    }

    /// The camera sent its last frame (a video file used as a camera ended, a camera closed its stream).
    private func cameraEnded() async {
        guard running != nil else { return }
        if case .file(let path) = configuration.device.kind {
            await interrupt(CaptureError(.interrupted,
                "the video \(path) ended after its last frame; use a longer video, or a picture, which a session shows for as long as it runs"))
            return
        }
        await interrupt(CaptureError(.interrupted,
            "\(configuration.device.name) stopped sending frames; check the camera, or start the session again"))
    }

    /// An element posted an error while running: the camera was lost, or the preview window closed.
    private func pipelineFailed(_ error: GStreamerError) async {
        guard running != nil else { return }
        if GStreamerMessageText.match(error) == .windowClosed {
            await stop()
            return
        }
        await interrupt(CaptureError(error, device: configuration.device, preview: configuration.preview))
    }

    private func interrupt(_ failure: CaptureError) async {
        await tearDown(reason: failure)
        status = .interrupted
        eventStream.send(.interrupted(failure))
        if configuration.resumesAutomatically {
            Task { [weak self] in try? await self?.resume() }
        }
    }
}
