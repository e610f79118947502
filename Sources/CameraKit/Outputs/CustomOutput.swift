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
public protocol CustomOutput: AnyObject, Sendable {
    /// The output's branch in gst-launch syntax, starting at `split.`, or `nil` to leave it out
    /// of this pipeline (`layout` holds the session's configuration and the camera's format).
    func branch(in layout: SessionPipeline) -> String?
    /// Joins the output to its elements once the pipeline is built, before it plays, so no frame
    /// is missed; a throw fails the session's start.
    func attach(to graph: SessionGraph) throws(CaptureError)
    /// Lets go of its elements: the session stops, or its start failed.
    func detach()
}

/// A program's own output taking its steps among the session's own outputs.
final class AddedOutput: SessionOutput {
    private let output: any CustomOutput

    init(_ output: any CustomOutput) {
        self.output = output
    }

    func branch(in layout: SessionPipeline) -> String? { output.branch(in: layout) }
    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) { try output.attach(to: graph) }
    func detach(_ reason: CaptureError) { output.detach() }
}
