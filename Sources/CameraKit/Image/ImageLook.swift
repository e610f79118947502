import GStreamer
import Synchronization

/// The picture's elements of a session (``ImageStage/look``: crop and zoom, colours, filters,
/// drawing, words, green screen) as a bin of their own, linked between the camera (or its
/// filters) and the tee, so they can be swapped while the camera runs. Neutral settings have no
/// look: the camera is linked to the tee. Tone filters rewrite each frame in place at their
/// `identity` element.
final class ImageLook: Sendable {
    let bin: Bin
    /// The crop and the capsfilter of the picture's size after it, when the picture is cropped or zoomed.
    let crop: Element?
    let size: Element?
    /// The colour adjustments, when the colours are adjusted.
    let balance: Element?

    /// The look `stage` asks for; `nil` when it asks for none.
    static func make(_ stage: ImageStage, backdrop: Backdrop?) throws(CaptureError) -> ImageLook? {
        guard let description = stage.look else { return nil }
        return try ImageLook(stage, description: description, backdrop: backdrop)
    }

    /// Builds the look's elements and attaches its tones, and the backdrop of its green screen
    /// (decoded at the stage's output size) when it has one.
    private init(_ stage: ImageStage, description: String, backdrop: Backdrop?) throws(CaptureError) {
        if let overlay = stage.settings.overlay { _ = try stage.overlayPlacement(overlay) }
        do {
            bin = try Bin(fragment: description)
            crop = bin.element(named: SessionElement.crop.rawValue)
            size = bin.element(named: SessionElement.size.rawValue)
            balance = bin.element(named: SessionElement.balance.rawValue)
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
                guard let overlay = bin.element(named: SessionElement.text(index)), let pad = overlay.staticPad(named: "video_sink") else {
                    throw CaptureError(.pipeline, "the filters' pipeline fragment lacks its text element")
                }
                try text.setWords(of: overlay, pictureHeight: stage.outputSize.height)
                if case .stamp = text.content { Self.stamp(text, at: pad) }
            }
        } catch {
            throw CaptureError.converting(error, context: "the picture's elements could not be built")
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

    /// Links the look between the element before it and the tee, in a pipeline not yet playing.
    func insert(after input: Element, before tee: Element, of pipeline: Pipeline) throws(CaptureError) {
        do {
            input.unlink(from: tee)
            try pipeline.add(bin)
            try input.link(to: bin)
            try bin.link(to: tee)
        } catch {
            throw CaptureError.converting(error, context: "the picture's elements could not be linked")
        }
    }

    /// Puts `new` in place of `old` (either `nil`: none) between `graph`'s look input and tee in a
    /// running pipeline: the flow is held at the look's input while they are swapped, so no frame
    /// passes half-changed.
    static func replace(_ old: ImageLook?, with new: ImageLook?, in graph: SessionGraph) async throws(CaptureError) {
        let (input, tee, pipeline) = (graph.lookInput, graph.split, graph.pipeline)
        let output = try SessionGraph.pad("src", of: input)
        let hold = await output.block(waitingAtMost: SessionGraph.holdWait)
        defer { hold.remove() }
        do {
            if let old {
                input.unlink(from: old.bin)
                old.bin.unlink(from: tee)
                try? await old.bin.changeState(to: .null)
                try pipeline.remove(old.bin)
            } else {
                input.unlink(from: tee)
            }
            if let new {
                try pipeline.add(new.bin)
                try input.link(to: new.bin)
                try new.bin.link(to: tee)
                try new.bin.syncStateWithParent()
            } else {
                try input.link(to: tee)
            }
        } catch {
            throw CaptureError.converting(error, context: "the picture's elements could not be changed")
        }
    }

    /// Sets the crop, size and colour adjustments of this running look to `stage`'s, which builds
    /// the same elements. The crop's four sides are set one by one, so the flow is held at
    /// `input` meanwhile: no frame meets a crop half changed (a frame cropped on one side only
    /// failed negotiation at the camera).
    func adjust(to stage: ImageStage, after input: Element) async throws(CaptureError) {
        guard crop != nil || balance != nil else { return }
        let hold = await input.staticPad(named: "src")?.block(waitingAtMost: SessionGraph.holdWait)
        defer { hold?.remove() }
        do {
            try stage.applyAdjustments(to: self)
        } catch {
            throw CaptureError.converting(error, context: "the image settings could not be changed")
        }
    }
}
