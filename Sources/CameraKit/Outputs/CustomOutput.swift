import GStreamer

/// An output of a program's own, added to a session with ``CaptureSession/add(_:)``: its branch
/// after the session's tee, joined to its elements once the pipeline is built, let go as the
/// session stops. It names its elements itself (the session's own names are its own), and
/// reads every frame the camera makes, after the session's filters and framing.
///
/// ```swift
/// final class FrameCounter: CustomOutput {
///     let counted = Atomic<Int>(0)
///     func branch(in layout: SessionPipeline) -> String? { "split. ! queue ! fakesink name=counter sync=false" }
///     func attach(to graph: SessionGraph) throws(CaptureError) {
///         _ = graph.element(named: "counter")?.staticPad(named: "sink")?.addProbe(.buffer) { [self] _ in
///             counted.add(1, ordering: .relaxed)
///             return .pass
///         }
///     }
///     func detach() {}
/// }
/// ```
///
/// Beyond its branch, it may take every step the session's own outputs take, each optional:
/// ``prepare(for:)`` beside the pipeline's start, ``activate(in:layout:)`` once frames flow,
/// ``cameraChanged(to:layout:)`` and ``imageChanged(in:layout:)`` while it runs (a motion
/// detector starts over on a new camera), and ``finish()`` once the pipeline is stopped.
public protocol CustomOutput: AnyObject, Sendable {
    /// The output's branch in gst-launch syntax, starting at `split.`, or `nil` to leave it out
    /// of this pipeline (`layout` holds the session's configuration and the camera's format).
    func branch(in layout: SessionPipeline) -> String?
    /// Readies what the output needs before its first frame, beside the pipeline's start; a
    /// throw fails the start.
    func prepare(for layout: SessionPipeline) async throws(CaptureError)
    /// Joins the output to its elements once the pipeline is built, before it plays, so no frame
    /// is missed; a throw fails the session's start.
    func attach(to graph: SessionGraph) throws(CaptureError)
    /// Begins work: the pipeline plays and every output is prepared.
    func activate(in graph: SessionGraph, layout: SessionPipeline)
    /// The running session switched cameras; `layout.configuration.device` is the new one.
    func cameraChanged(to source: Bin, layout: SessionPipeline)
    /// The running session's image settings changed (filters, zoom, framing), applied already.
    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError)
    /// Lets go of its elements: the session stops, or its start failed.
    func detach()
    /// Stops what ``prepare(for:)`` started, once the pipeline is stopped.
    func finish() async
}

extension CustomOutput {
    public func prepare(for layout: SessionPipeline) async throws(CaptureError) {}
    public func activate(in graph: SessionGraph, layout: SessionPipeline) {}
    public func cameraChanged(to source: Bin, layout: SessionPipeline) {}
    public func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) {}
    public func finish() async {}
}

/// A program's own output taking its steps among the session's own outputs.
final class AddedOutput: SessionOutput {
    private let output: any CustomOutput

    init(_ output: any CustomOutput) {
        self.output = output
    }

    func branch(in layout: SessionPipeline) -> String? { output.branch(in: layout) }
    func prepare(for layout: SessionPipeline) async throws(CaptureError) { try await output.prepare(for: layout) }
    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) { try output.attach(to: graph) }
    func activate(in graph: SessionGraph, layout: SessionPipeline) { output.activate(in: graph, layout: layout) }
    func cameraChanged(to source: Bin, layout: SessionPipeline) { output.cameraChanged(to: source, layout: layout) }
    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) {
        try await output.imageChanged(in: graph, layout: layout)
    }
    func detach(_ reason: CaptureError) { output.detach() }
    func finish() async { await output.finish() }
}
