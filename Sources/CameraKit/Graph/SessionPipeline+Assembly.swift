import GStreamer
import Synchronization

// Building the pipeline a SessionPipeline writes: the camera as a bin of its own, the rest
// from the text, the filters linked in, and the first frames thrown away.

extension SessionPipeline {
    /// Builds the session's pipeline, not yet playing, and finds its elements; `backdrop` is the
    /// green screen's background decoded at the picture's size.
    func build(backdrop: Backdrop?) throws(CaptureError) -> SessionGraph {
        do {
            let pipeline = try Pipeline(describing: afterCamera)
            // The system's monotonic clock, even when the camera offers one (PipeWire's jumps when
            // its stream is renegotiated): frame times stay on one timeline, which a microphone's
            // pipeline shares.
            pipeline.useSystemClock()
            let source = try makeSource()
            try pipeline.add(source)
            let graph = try SessionGraph(pipeline: pipeline, source: source, look: try ImageLook.make(image, backdrop: backdrop))
            try source.link(to: graph.cameraInput)
            try graph.look?.insert(after: graph.lookInput, before: graph.split, of: pipeline)
            dropFirstFrames(at: graph.split)
            return graph
        } catch {
            throw CaptureError.converting(error, context: "the pipeline could not be built",
                                          device: configuration.device, preview: configuration.preview)
        }
    }

    /// The camera as a bin with one source pad.
    func makeSource() throws(CaptureError) -> Bin {
        do {
            if case .file(let path) = configuration.device.kind {
                return try makeFileSource(path)
            }
            let source = try Bin(fragment: source)
            try Self.expose(.cameraOutput, "src", of: source)
            if let camera = source.element(named: SessionElement.camera.rawValue), camera.factoryName == "pipewiresrc" {
                // pipewiresrc leaves its frames undated: they are dated on arrival, as movies need.
                camera.staticPad(named: "src")?.dateOnArrival()
            }
            return source
        } catch {
            throw CaptureError.converting(error, context: "the camera's pipeline could not be built",
                                          device: configuration.device, preview: configuration.preview)
        }
    }

    /// Throws away the first frames after a start or switch, before the tee, so every branch skips
    /// them; `firstKept` is called, on the streaming thread, as the first frame after them passes.
    func dropFirstFrames(at split: Element, firstKept: (@Sendable () -> Void)? = nil) {
        let count = configuration.framesDroppedAfterStart
        guard count > 0 || firstKept != nil, let pad = split.staticPad(named: "sink") else { return }
        let seen = Atomic<Int>(0)
        pad.addProbe(.buffer) { _ in
            guard seen.add(1, ordering: .relaxed).newValue > count else { return .drop }
            firstKept?()
            return .remove
        }
    }

    /// A file read as a camera: the same elements as ``source`` writes, but the decoder's video
    /// pad is linked here, after the elements behind it are brought to the bin's state. (Left to
    /// gst-launch's delayed linking, the bin could start the file before those elements, and the
    /// decoder's first data met an inactive pad and stopped without an error.)
    private func makeFileSource(_ path: String) throws -> Bin {
        let source = try Bin()
        let reader = try Element(factory: "filesrc", name: SessionElement.camera.rawValue)
        try reader.setProperty("location", path)
        let decoder = try Element(factory: "decodebin", name: SessionElement.fileDecoder.rawValue)
        let decoded = try Bin(fragment: decodedFile(path))
        try Self.expose(.fileDecoderOutput, "sink", of: decoded)
        try Self.expose(.cameraOutput, "src", of: decoded)
        try source.add(reader, decoder, decoded)
        try reader.link(to: decoder)
        let decodedInput = try SessionGraph.pad("sink", of: decoded), decodedOutput = try SessionGraph.pad("src", of: decoded)
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
    private static func expose(_ name: SessionElement, _ padName: String, of bin: Bin) throws {
        guard let pad = bin.element(named: name.rawValue)?.staticPad(named: padName) else {
            throw CaptureError(.pipeline, "the camera's pipeline fragment has no \(name.rawValue)")
        }
        try bin.exposePad(pad, as: padName)
    }
}
