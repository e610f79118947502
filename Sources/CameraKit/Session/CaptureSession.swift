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
    nonisolated let cameraFrames = Atomic<Int>(0)

    /// The configuration in force.
    public internal(set) var configuration: SessionConfiguration
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
    var stopCount = 0
    /// The green screen's background as last decoded, and the picture it was decoded from.
    var decodedBackdrop: (path: String, backdrop: Backdrop)?
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

    /// Calls `observe` with each of the session's events from now on, at once on the sender's
    /// side and in order (what an operator relays); `observe` must not block.
    public nonisolated func observeEvents(_ observe: @escaping @Sendable (SessionEvent) -> Void) {
        eventStream.observe(observe)
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
    nonisolated func layout(of configuration: SessionConfiguration, format: CaptureFormat) -> SessionPipeline {
        SessionPipeline(configuration: configuration, format: format, outputs: outputs.all)
    }

    /// Builds and plays the pipeline. A stop asked since `stopsBefore` (while the screen opened,
    /// the camera started or the encoders got ready) ends the start: what it made is let go, and
    /// it throws ``CaptureError/stoppedWhileStarting``.
    func launch(attempt: Int = 1, stopsBefore: Int) async throws(CaptureError) {
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
