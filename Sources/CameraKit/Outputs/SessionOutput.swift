import GStreamer

/// An output of a capture session: its branch after the tee, and what it does as the session
/// starts, changes and stops. The session calls these in order, from its actor:
///
/// 1. ``branch(in:)`` while the pipeline's text is written;
/// 2. ``prepare(for:)`` while the pipeline is built and started (an encoder's start);
/// 3. ``attach(to:layout:)`` once it is built, before it plays, so no frame is missed;
/// 4. ``activate(in:layout:)`` once it plays and every output is prepared;
/// 5. ``cameraChanged(to:layout:)`` and ``imageChanged(in:layout:)`` while it runs;
/// 6. ``detach(_:)`` as it stops (or a start fails), then ``finish()`` once the pipeline is stopped.
///
/// An output that needs none of a step leaves it to the defaults, which do nothing.
protocol SessionOutput: AnyObject, Sendable {
    /// The output's branch in gst-launch syntax, starting at `split.`, or `nil` when the session's
    /// configuration leaves the output out. Its elements are named by ``SessionElement``.
    func branch(in layout: SessionPipeline) -> String?
    /// Readies what the output needs before its first frame; runs beside the pipeline's start.
    func prepare(for layout: SessionPipeline) async throws(CaptureError)
    /// Connects to the elements of its branch.
    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError)
    /// Begins work: the pipeline plays and every output is prepared.
    func activate(in graph: SessionGraph, layout: SessionPipeline)
    /// The running session switched cameras; `layout.configuration.device` is the new one.
    func cameraChanged(to source: Bin, layout: SessionPipeline)
    /// The running session's image settings changed, and its adjustments were applied.
    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError)
    /// Lets go of the pipeline's elements; work waiting for a frame fails with `reason`.
    func detach(_ reason: CaptureError)
    /// Stops what ``prepare(for:)`` started, once the pipeline is stopped.
    func finish() async
}

extension SessionOutput {
    func prepare(for layout: SessionPipeline) async throws(CaptureError) {}
    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) {}
    func activate(in graph: SessionGraph, layout: SessionPipeline) {}
    func cameraChanged(to source: Bin, layout: SessionPipeline) {}
    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) {}
    func detach(_ reason: CaptureError) {}
    func finish() async {}
}
