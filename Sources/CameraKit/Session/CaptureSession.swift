import FoundationEssentials
import Glibc
import GPhoto2
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
    /// Encodes the live picture as JPEG frames for browsers.
    public nonisolated let liveJPEGOutput = LiveJPEGOutput()
    /// Encodes the live picture as H.264 for RTSP viewers.
    public nonisolated let liveH264Output = LiveH264Output()
    /// Records movies, when the configuration asks for movies.
    public nonisolated let movieOutput: MovieOutput

    /// How many frames the camera has delivered since the session was made: what every output's
    /// own count (frames encoded, frames recorded) is measured against.
    public nonisolated var cameraFrameCount: Int { cameraFrames.load(ordering: .relaxed) }
    private nonisolated let cameraFrames = Atomic<Int>(0)

    /// The configuration in force.
    public private(set) var configuration: SessionConfiguration
    /// Where the session is in its life.
    public internal(set) var status: Status = .stopped

    /// The outputs, in the order their branches leave the tee. An output is registered here.
    nonisolated var outputs: SessionOutputs {
        SessionOutputs(all: [photoOutput, videoDataOutput, previewOutput, liveJPEGOutput, liveH264Output, movieOutput]
                       + addedOutputs.withLock { $0 })
    }

    /// Outputs of a program's own, after the session's: their branches follow the others'.
    private nonisolated let addedOutputs = Mutex<[any SessionOutput]>([])

    /// Adds an output of a program's own (``CustomOutput``): its branch is part of the pipeline
    /// from the next start (add it before ``start()``), after the session's own outputs.
    public nonisolated func add(_ output: any CustomOutput) {
        addedOutputs.withLock { $0.append(AddedOutput(output)) }
    }

    var running: Running?
    /// How many times ``stop()`` was asked: a start, switch or resume in flight compares it after
    /// each suspension, so one the session was stopped during ends instead of running on.
    private var stopCount = 0
    /// The green screen's background as last decoded, and the picture it was decoded from.
    private var decodedBackdrop: (path: String, backdrop: Backdrop)?
    let eventStream = Broadcast<SessionEvent>()
    /// Watches cameras come and go, and the running camera's frames.
    let supervisor = CameraSupervisor()
    /// Finds and opens DSLR and mirrorless cameras.
    nonisolated let tetheredCameras: any TetheredCameraDriver

    /// What exists while the session runs.
    struct Running {
        var graph: SessionGraph
        var description: String
        var format: CaptureFormat
        /// Watches the bus once the pipeline runs.
        var monitor: Task<Void, Never>?
        /// Notices a system camera that stops sending frames without saying so.
        var stallWatch: Task<Void, Never>?
        /// A DSLR's live view feeding the graph, and its shutter taking the photos.
        var gphoto2: GPhotoSource?
    }

    /// Makes a session with a configuration; nothing runs until ``start()``. DSLR and mirrorless
    /// cameras are found and opened by `tetheredCameras` (libgphoto2 unless a program gives its own).
    public init(configuration: SessionConfiguration = SessionConfiguration(), tetheredCameras: any TetheredCameraDriver = GPhotoDriver()) {
        self.configuration = configuration
        self.tetheredCameras = tetheredCameras
        movieOutput = MovieOutput(photoOutput: photoOutput)
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
        switch updated.difference(from: configuration) {
        case .none: return
        case .device where running != nil: return try await switchDevice(to: updated.device)
        case .image: return try await changeImage(to: updated.image)
        case .device, .more: break
        }
        try updated.image.validate()
        guard running != nil else {
            configuration = updated
            return
        }
        let previous = configuration, stops = stopCount
        await tearDown(reason: CaptureError(.notRunning, "the session was reconfigured while the photo was being taken"))
        configuration = updated
        do throws(CaptureError) {
            try await launch(stopsBefore: stops)
            eventStream.send(.reconfigured)
        } catch {
            guard stopCount == stops else { throw error }  // stopped meanwhile: the change is kept for the next start
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
    private func backdrop(for stage: ImageStage) async throws(CaptureError) -> Backdrop? {
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

    /// The pipeline the configuration makes, in gst-launch syntax, without starting it.
    public func pipelineDescription() throws(CaptureError) -> String {
        if let running { return running.description }
        return layout(of: configuration, format: try configuration.resolvedFormat()).description
    }

    /// Starts the camera and the outputs; returns once frames flow.
    ///
    /// - Throws: A ``CaptureError`` that says what is wrong: no such camera, busy, no permission,
    ///   no such format, a sink that cannot open.
    public func start() async throws(CaptureError) {
        guard running == nil else { return }
        let stops = stopCount
        do {
            try await launch(stopsBefore: stops)
        } catch {
            await previewOutput.closeScreen()
            guard stopCount == stops else { throw error }  // stopped while starting: stopped, not failed
            status = .failed
            eventStream.send(.failed(error))
            throw error
        }
    }

    /// Stops the camera and the outputs. Captures still encoding finish; those waiting for a frame fail.
    public func stop() async {
        stopCount += 1
        supervisor.stopWatchingHotPlug()
        guard running != nil else {
            // Between two pipelines (a switch or a resume on its way): that start ends at its next
            // step (closing a screen it opens meanwhile), and the session is stopped now, its
            // screen closed (a failed switch leaves the old one open).
            await previewOutput.closeScreen()
            if status == .running || status == .interrupted {
                status = .stopped
                eventStream.send(.stopped)
            }
            return
        }
        await tearDown(reason: CaptureError(.notRunning, "the session stopped before the photo was taken"))
        await previewOutput.closeScreen()
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
        let deadline = ContinuousClock.now + timeout, stops = stopCount
        while true {
            let arrivals = supervisor.cameraArrivals()
            do {
                let current = await DeviceDiscovery.current(configuration.device, acceptingOthers: acceptingOtherCameras, tethered: tetheredCameras)
                guard status == .interrupted || status == .failed else { return }  // stopped or restarted while looking
                if let camera = current {
                    configuration.device = camera
                    try await launch(stopsBefore: stops)
                    status = .running
                    eventStream.send(.resumed)
                    return
                }
            } catch where [.deviceNotFound, .deviceBusy, .noCamera, .interrupted].contains(error.code)
                && ContinuousClock.now < deadline {
                // Not back yet, or still held by another program: wait and try again.
            }
            guard ContinuousClock.now < deadline else {
                throw .notBack(configuration.device, within: timeout)
            }
            await CameraSupervisor.wait(for: arrivals, atMost: min(.seconds(2), deadline - ContinuousClock.now))
            guard status == .interrupted || status == .failed else { return }  // stopped or restarted meanwhile
        }
    }

    // MARK: - Running the pipeline

    /// The pipeline a configuration makes, with the session's outputs.
    private nonisolated func layout(of configuration: SessionConfiguration, format: CaptureFormat) -> SessionPipeline {
        SessionPipeline(configuration: configuration, format: format, outputs: outputs.all)
    }

    /// Builds and plays the pipeline. A stop asked since `stopsBefore` (while the screen opened,
    /// the camera started or the encoders got ready) ends the start: what it made is let go, and
    /// it throws ``CaptureError/stoppedWhileStarting``.
    private func launch(attempt: Int = 1, stopsBefore: Int) async throws(CaptureError) {
        let format = try configuration.resolvedFormat()
        try await previewOutput.openScreen(for: configuration.preview)
        let layout = layout(of: configuration, format: format)
        let device = configuration.device
        // The outputs get ready (encoders start) while the camera's pipeline is built and
        // started, so none delays the first frame. A start that fails lets every output go.
        let outputs = self.outputs
        // A DSLR is opened first: a camera held by another program fails the start before anything is built.
        let gphoto2 = if case .gphoto2 = device.kind {
            try await GPhotoSource.open(device, with: tetheredCameras, deletingFromCard: configuration.deletesFromCameraCard,
                                        shotTimeout: configuration.cameraShotTimeout)
        } else {
            nil as GPhotoSource?
        }
        let preparing = outputs.prepare(for: layout)
        let notStarted = CaptureError(.notRunning, "the session did not start")
        let graph: SessionGraph
        do {
            graph = try layout.build(backdrop: try await backdrop(for: layout.image))
            try outputs.attach(to: graph, layout: layout)
            // Counted from the same first frame the outputs, attached before the pipeline plays, see.
            _ = graph.cameraInput.staticPad(named: "sink")?.addProbe(.buffer) { [weak self] _ in
                self?.cameraFrames.add(1, ordering: .relaxed)
                return .pass
            }
        } catch {
            await outputs.abandon(preparing, reason: notStarted)
            await gphoto2?.close()
            throw CaptureError.converting(error, context: "the pipeline could not be built")
        }
        guard stopCount == stopsBefore else {
            await outputs.abandon(preparing, reason: .stoppedWhileStarting)
            await gphoto2?.close()
            await previewOutput.closeScreen()
            throw .stoppedWhileStarting
        }
        if attempt == 1 { eventStream.send(.started(device: device.name, format: format)) }
        // Subscribed before the start, read after it: what the pipeline says while starting is the
        // start's to report; what it says later (the camera lost, a window closed) is the monitor's.
        let messages = graph.pipeline.messages()
        running = Running(graph: graph, description: layout.description, format: format, gphoto2: gphoto2)
        if let gphoto2, let feed = graph.source.element(named: SessionElement.camera.rawValue, as: AppSource.self) {
            let events = eventStream
            gphoto2.feed(feed, size: (format.width, format.height), noLiveView: { events.send(.noLiveView(device: device.name)) },
                         lost: { [weak self] failure in Task { await self?.cameraLost(failure) } })
            photoOutput.cameraShutter.withLock { $0 = { () async throws(CaptureError) in try await gphoto2.takePhoto() } }
        }
        // A file camera starts in well under a second, but about one start in fifty under heavy load
        // never prerolls (a race inside GStreamer 1.22's decodebin we have not pinned down): such a
        // start is given up after a few seconds and made once more, given longer (a machine loaded
        // far beyond its cores has taken over 15 s to preroll a picture).
        // A DSLR's first picture is its first live view picture, or a dark frame made by a pipeline
        // of its own: on a machine that busy, that too takes longer than a webcam's first frame.
        let isFile = if case .file = device.kind { true } else { false }
        let isDSLR = if case .gphoto2 = device.kind { true } else { false }
        let allowed: Duration = isFile ? (attempt == 1 ? .seconds(5) : .seconds(30)) : isDSLR ? .seconds(60) : .seconds(15)
        do {
            try await graph.pipeline.play(timeout: allowed)
        } catch {
            await tearDown(reason: notStarted)
            await outputs.abandon(preparing, reason: notStarted)
            guard stopCount == stopsBefore else { throw .stoppedWhileStarting }
            if isFile, attempt == 1, error.kind == .timeout {
                try await launch(attempt: 2, stopsBefore: stopsBefore)
                return
            }
            throw CaptureError(error, device: device, preview: configuration.preview)
        }
        do {
            try await preparing.value
        } catch {
            await tearDown(reason: notStarted)
            throw CaptureError.converting(error, context: "the photo encoders could not start")
        }
        guard stopCount == stopsBefore else {
            await tearDown(reason: .stoppedWhileStarting)
            throw .stoppedWhileStarting
        }
        outputs.activate(in: graph, layout: layout)
        running?.monitor = SessionGraph.watch(messages, failed: { [weak self] in await self?.pipelineFailed($0) },
                                              ended: { [weak self] in await self?.cameraLost(.ended(device)) })
        status = .running
        eventStream.send(.running)
        watchHotPlug()
        if case .system = device.kind, let pad = graph.cameraInput.staticPad(named: "sink") {
            running?.stallWatch = CameraSupervisor.watchForStalls(at: pad, frameRate: format.frameRate) { [weak self] in
                await self?.cameraLost(.stalled(device))
            }
        }
    }
}
