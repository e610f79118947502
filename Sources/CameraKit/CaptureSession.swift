import Foundation
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

    /// What exists while the session runs.
    private struct Running {
        let pipeline: Pipeline
        let description: String
        let format: CaptureFormat
        let monitor: Task<Void, Never>
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

    /// Switches to another camera while running, keeping the outputs (seed 000's switch camera).
    public func switchDevice(to device: CaptureDevice) async throws(CaptureError) {
        var updated = configuration
        updated.device = device
        try await apply(updated)
    }

    /// The pipeline the configuration makes, in gst-launch syntax, without starting it.
    public func pipelineDescription() throws(CaptureError) -> String {
        if let running { return running.description }
        return SessionPipeline(configuration: configuration, format: try resolveFormat()).description
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
        guard running != nil else { return }
        await tearDown(reason: CaptureError(.notRunning, "the session stopped before the photo was taken"))
        status = .stopped
        eventStream.send(.stopped)
    }

    // MARK: - Running the pipeline

    private func resolveFormat() throws(CaptureError) -> CaptureFormat {
        let device = configuration.device
        switch device.kind {
        case .testPattern, .system:
            let capabilities = device.capabilities.isEmpty ? CaptureDevice.testCamera().capabilities : device.capabilities
            var request = configuration.format
            if case .testPattern = device.kind, request.width == nil {
                request = FormatRequest(width: 4032, height: 3024, frameRate: request.frameRate ?? Fraction(15))
            }
            return try FormatSelection.choose(for: request, from: capabilities, camera: device.name)
        case .file:
            let request = configuration.format
            return CaptureFormat(width: request.width ?? 1920, height: request.height ?? 1080,
                                 frameRate: request.frameRate ?? Fraction(30))
        }
    }

    private func launch() async throws(CaptureError) {
        let format = try resolveFormat()
        let description = SessionPipeline(configuration: configuration, format: format).description
        let device = configuration.device
        let preview = configuration.preview
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline(describing: description)
        } catch {
            throw CaptureError(error, device: device, preview: preview)
        }
        dropFirstFrames(of: pipeline)
        eventStream.send(.started(device: device.name, format: format))

        var encoders: (StillEncoder, StillEncoder)?
        if configuration.capturesPhotos {
            encoders = (try await StillEncoder(label: "photo"), try await StillEncoder(label: "thumbnail"))
        }
        attachOutputs(to: pipeline, device: device, format: format, encoders: encoders)
        let monitor = Task { [weak self, messages = pipeline.messages()] in
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
        running = Running(pipeline: pipeline, description: description, format: format, monitor: monitor)
        do {
            try await pipeline.play(timeout: .seconds(15))
        } catch {
            await tearDown(reason: CaptureError(.notRunning, "the session did not start"))
            throw CaptureError(error, device: device, preview: preview)
        }
        status = .running
        eventStream.send(.running)
    }

    /// Throws away the first frames after a start, before the tee, so every branch skips them.
    private func dropFirstFrames(of pipeline: Pipeline) {
        let count = configuration.framesDroppedAfterStart
        guard count > 0, let pad = pipeline.element(named: "split")?.staticPad(named: "sink") else { return }
        let seen = Atomic<Int>(0)
        pad.addProbe(.buffer) { _ in
            seen.add(1, ordering: .relaxed).newValue > count ? .remove : .drop
        }
    }

    private func attachOutputs(to pipeline: Pipeline, device: CaptureDevice, format: CaptureFormat,
                               encoders: (StillEncoder, StillEncoder)?) {
        if let stills = pipeline.element(named: "stills", as: AppSink.self), let encoders {
            let ring = photoOutput.ring
            stills.setHandlers(onSample: { ring.append($0) })
            photoOutput.attach(PhotoOutput.Attachment(
                photoEncoder: encoders.0, thumbnailEncoder: encoders.1, clock: pipeline,
                deviceName: device.name, width: format.width, height: format.height))
        }
        if let frames = pipeline.element(named: "frames", as: AppSink.self) {
            let output = videoDataOutput
            frames.setHandlers(onSample: { output.deliver($0) })
        }
        if let valve = pipeline.element(named: "preview_valve") {
            previewOutput.attach(valve: valve)
        }
    }

    private func tearDown(reason: CaptureError) async {
        guard let current = running else { return }
        running = nil
        current.monitor.cancel()
        previewOutput.detach()
        let attachment = photoOutput.detach(reason)
        try? await current.pipeline.stop()
        await attachment?.photoEncoder.stop()
        await attachment?.thumbnailEncoder.stop()
    }

    /// The camera sent its last frame (a video file used as a camera ended, a camera closed its stream).
    private func cameraEnded() async {
        guard running != nil else { return }
        await interrupt(CaptureError(.interrupted,
            "\(configuration.device.name) stopped sending frames; check the camera, or start the session again"))
    }

    /// An element posted an error while running: the camera was lost, or the preview window closed.
    private func pipelineFailed(_ error: GStreamerError) async {
        guard running != nil else { return }
        if error.message.contains("Output window was closed") {
            await stop()
            return
        }
        await interrupt(CaptureError(error, device: configuration.device, preview: configuration.preview))
    }

    private func interrupt(_ failure: CaptureError) async {
        await tearDown(reason: failure)
        status = .interrupted
        eventStream.send(.interrupted(failure))
    }
}
