import GStreamer

/// A built session pipeline, with the elements the session works on found once by name: a
/// missing element fails the build with a ``CaptureError`` rather than leaving a step undone later.
public struct SessionGraph: Sendable {
    let pipeline: Pipeline
    /// The camera's bin, linked to ``cameraInput``; replaced when the camera is switched.
    var source: Bin
    /// The picture's bin, between ``lookInput`` and ``split``, when the image settings ask for
    /// one; replaced when what they ask for changes.
    var look: ImageLook?
    /// The first element after the camera.
    let cameraInput: Element
    /// The element the picture's bin follows: the camera's input, or the end of the custom filters.
    let lookInput: Element
    /// The tee every output's branch starts at.
    let split: Element

    /// Finds the session's elements in a pipeline built from a ``SessionPipeline``.
    init(pipeline: Pipeline, source: Bin, look: ImageLook?) throws(CaptureError) {
        self.pipeline = pipeline
        self.source = source
        self.look = look
        func required(_ name: SessionElement) throws(CaptureError) -> Element {
            guard let element = pipeline.element(named: name.rawValue) else { throw Self.missing(name) }
            return element
        }
        cameraInput = try required(.cameraInput)
        lookInput = pipeline.element(named: SessionElement.filtersOutput.rawValue) ?? cameraInput
        split = try required(.split)
    }

    /// An element of an output's branch, which the configuration put there.
    /// An element of the pipeline by its name: one a ``CustomOutput`` named in its branch.
    public func element(named name: String) -> Element? {
        pipeline.element(named: name)
    }

    func element(_ name: SessionElement) throws(CaptureError) -> Element {
        guard let element = pipeline.element(named: name.rawValue) else { throw Self.missing(name) }
        return element
    }

    /// An app sink of an output's branch, which the configuration put there.
    func appSink(_ name: SessionElement) throws(CaptureError) -> AppSink {
        guard let sink = pipeline.element(named: name.rawValue, as: AppSink.self) else { throw Self.missing(name) }
        return sink
    }

    /// Puts a new camera's bin in place of the running one, not yet playing: the old camera's
    /// flow is held at its pad while it is unlinked and stopped, so no frame of it passes after.
    mutating func replaceSource(with replacement: Bin) async throws(CaptureError) {
        let teeInput = try Self.pad("sink", of: cameraInput), oldOutput = try Self.pad("src", of: source)
        let hold = await oldOutput.block(waitingAtMost: Self.holdWait)
        oldOutput.unlink(from: teeInput)
        try? await source.changeState(to: .null)
        hold.remove()
        try? pipeline.remove(source)
        do {
            try pipeline.add(replacement)
            try replacement.link(to: cameraInput)
        } catch {
            throw CaptureError(.interrupted, "the new camera could not be linked: \(error.message)", debugInfo: error.debugInfo)
        }
        source = replacement
    }

    /// Hands the pipeline's first error, or its end of stream, to `failed` or `ended`.
    static func watch(_ messages: AsyncStream<Message>, failed: @escaping @Sendable (GStreamerError) async -> Void,
                      ended: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        Task {
            for await message in messages {
                switch message {
                case .error(let report): return await failed(GStreamerError(report))
                case .endOfStream: return await ended()
                default: continue
                }
            }
        }
    }

    /// How long a change waits for the flow to be held (the next frame reaching the block)
    /// before it goes on regardless: long enough that a loaded machine's late frame is still
    /// held (changing the crop with frames passing failed negotiation at the camera on a full
    /// test run), short enough that a camera sending nothing delays a change only this much.
    static let holdWait = Duration.seconds(5)

    /// A pad every session element has.
    static func pad(_ name: String, of element: Element) throws(CaptureError) -> Pad {
        guard let pad = element.staticPad(named: name) else {
            throw CaptureError(.pipeline, "the session's element \(element.name) has no \(name) pad")
        }
        return pad
    }

    private static func missing(_ name: SessionElement) -> CaptureError {
        CaptureError(.pipeline, "the session's pipeline has no element called \(name.rawValue)")
    }
}
