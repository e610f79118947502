import GStreamer

/// A session's outputs as one: each step of ``SessionOutput`` taken by every output, in order.
struct SessionOutputs: Sendable {
    let all: [any SessionOutput]

    /// Readies every output, beside the pipeline's start; ``detach(_:)`` and ``finish()`` after
    /// a failed start let go of what was readied.
    func prepare(for layout: SessionPipeline) -> Task<Void, any Error> {
        Task { [all] in
            for output in all { try await output.prepare(for: layout) }
        }
    }

    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) {
        for output in all { try output.attach(to: graph, layout: layout) }
    }

    func activate(in graph: SessionGraph, layout: SessionPipeline) {
        for output in all { output.activate(in: graph, layout: layout) }
    }

    func cameraChanged(to source: Bin, layout: SessionPipeline) {
        for output in all { output.cameraChanged(to: source, layout: layout) }
    }

    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) {
        for output in all { try await output.imageChanged(in: graph, layout: layout) }
    }

    func detach(_ reason: CaptureError) {
        for output in all { output.detach(reason) }
    }

    func finish() async {
        for output in all { await output.finish() }
    }

    /// Lets go of everything a start that failed had readied, once the readying is over.
    func abandon(_ preparing: Task<Void, any Error>, reason: CaptureError) async {
        _ = await preparing.result
        detach(reason)
        await finish()
    }
}
