import GStreamer
import Synchronization

/// The filters of a session (``ImageStage/look``) as a bin of their own, linked between the
/// colour adjustments and the tee, so they can be swapped while the camera runs. Tone filters
/// rewrite each frame in place at their `identity` element.
final class ImageLook: Sendable {
    let bin: Bin

    /// Builds the look's elements and attaches its tones, and the backdrop of its green screen
    /// (decoded at the stage's output size) when it has one.
    init(_ stage: ImageStage, backdrop: Backdrop? = nil) throws(CaptureError) {
        if let overlay = stage.settings.overlay { _ = try stage.overlayPlacement(overlay) }
        do {
            bin = try Bin(fragment: stage.look)
            guard let start = bin.element(named: SessionElement.lookStart.rawValue)?.staticPad(named: "sink"),
                  let end = bin.element(named: SessionElement.lookEnd.rawValue)?.staticPad(named: "src") else {
                throw CaptureError(.pipeline, "the filters' pipeline fragment lacks its ends")
            }
            try bin.exposePad(start, as: "sink")
            try bin.exposePad(end, as: "src")
            for (index, segment) in stage.segments.enumerated() {
                guard case .tone(let tone) = segment else { continue }
                guard let pad = bin.element(named: SessionElement.tone(index))?.staticPad(named: "src") else {
                    throw CaptureError(.pipeline, "the filters' pipeline fragment lacks its tone element")
                }
                let videoRange = ToneMap(tone, fullRange: false), fullRange = ToneMap(tone, fullRange: true)
                pad.rewriteFrames { frame, info in
                    (info.isFullRange ? fullRange : videoRange).apply(to: frame, info: info)
                }
            }
            if stage.settings.greenScreen != nil {
                guard let backdrop else { throw CaptureError(.pipeline, "the green screen's background was not decoded") }
                guard let pad = bin.element(named: SessionElement.backdrop.rawValue)?.staticPad(named: "src") else {
                    throw CaptureError(.pipeline, "the filters' pipeline fragment lacks its backdrop element")
                }
                pad.rewriteFrames { frame, info in backdrop.lay(under: frame, info: info) }
            }
            for (index, text) in stage.settings.texts.enumerated() {
                guard case .stamp = text.content else { continue }
                guard let pad = bin.element(named: SessionElement.text(index))?.staticPad(named: "video_sink") else {
                    throw CaptureError(.pipeline, "the filters' pipeline fragment lacks its text element")
                }
                Self.stamp(text, at: pad)
            }
        } catch {
            throw CaptureError.converting(error, context: "the filters could not be built")
        }
    }

    /// Sets the words the text overlay of `pad` draws to each frame's own moment as the frame
    /// reaches it, only when they change (once a second for a stamp to the second).
    private static func stamp(_ text: TextMark, at pad: Pad) {
        let shown = Mutex("")
        pad.setOnEachFrame("text") { instant in
            let words = text.markup(at: instant)
            return shown.withLock { shown in
                guard shown != words else { return nil }
                shown = words
                return words
            }
        }
    }

    /// Links the look between the colour adjustments and the tee of a pipeline not yet playing.
    func insert(between balance: Element, and tee: Element, of pipeline: Pipeline) throws(CaptureError) {
        do {
            balance.unlink(from: tee)
            try pipeline.add(bin)
            try balance.link(to: bin)
            try bin.link(to: tee)
        } catch {
            throw CaptureError.converting(error, context: "the filters could not be linked")
        }
    }

    /// Puts this look in place of `old` in a running pipeline: the flow is held at the colour
    /// adjustments while the bins are swapped, so no frame passes half-filtered.
    func replace(_ old: ImageLook, in graph: SessionGraph) async throws(CaptureError) {
        let (balance, tee, pipeline) = (graph.balance, graph.split, graph.pipeline)
        let output = try SessionGraph.pad("src", of: balance)
        let hold = await output.block(waitingAtMost: SessionGraph.holdWait)
        defer { hold.remove() }
        do {
            balance.unlink(from: old.bin)
            old.bin.unlink(from: tee)
            try? await old.bin.changeState(to: .null)
            try pipeline.remove(old.bin)
            try pipeline.add(bin)
            try balance.link(to: bin)
            try bin.link(to: tee)
            try bin.syncStateWithParent()
        } catch {
            throw CaptureError.converting(error, context: "the filters could not be changed")
        }
    }
}
