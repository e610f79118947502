import Formatting
import FoundationEssentials
import GStreamer
import ImageMetadata

/// A template with its shots and pictures as one compositor pipeline, in gst-launch syntax, and
/// the pictures its app sources take, in their order. Everything is composed in BGRA (RGB has no
/// video-range question, and keeps the overlays' transparency):
///
/// ```
/// compositor name=mix ! BGRA at the template's size ! textoverlay … ! videoconvert ! jpegenc ! appsink name=output
///   under (a colour, or a picture cropped to the template's shape)         → mix.sink_0
///   input0 ! jpegdec ! crop or fit ! scale [! pad ! rotate]                → mix.sink_1 at its slot
///   inputN ! pngdec|jpegdec ! scale to its rectangle                        → mix.sink_K over the shots
/// ```
/// A turned slot is turned at twice its size and scaled down by the compositor, so its edges
/// are smooth, not stepped.
struct TemplateComposition {
    /// What the composition is made into: a JPEG, or packed RGB rows (turned a quarter clockwise
    /// when asked, as a page to print is when the picture lies across it).
    enum Output {
        case jpeg(quality: Int)
        case rgb(turned: Bool)
    }

    let description: String
    let inputs: [[UInt8]]
    /// The text overlays by name, with the words (as Pango markup) and font each draws.
    let texts: [(name: String, markup: String, font: String)]

    init(_ template: CompositionTemplate, shots: [[UInt8]], pictures: [String: [UInt8]], output: Output) throws(CaptureError) {
        var inputs: [[UInt8]] = []
        var branches: [String] = []
        var mixer = "compositor name=mix background=transparent"
        let (width, height) = (template.width, template.height)
        let backgroundPictures = if case .picture = template.background { 1 } else { 0 }
        let count = shots.count + backgroundPictures + template.overlays.count
        func source(for picture: [UInt8]) -> String {
            defer { inputs.append(picture) }
            // Named as AppPipeline names its sources: input alone, else input0, input1, …
            let name = count == 1 ? "input" : "input\(inputs.count)"
            return "appsrc name=\(name) format=time caps=\(Self.isJPEG(picture) ? "image/jpeg,framerate=1/1 ! jpegdec" : "image/png,framerate=1/1 ! pngdec") ! videoconvert"
        }
        func named(_ name: String) throws(CaptureError) -> [UInt8] {
            guard let bytes = pictures[name] else { throw CaptureError(.invalidSetting, "the template's picture \(name) was not read") }
            return bytes
        }
        func pad(_ index: Int, x: Int, y: Int, width: Int? = nil, height: Int? = nil) {
            mixer += " sink_\(index)::xpos=\(x) sink_\(index)::ypos=\(y) sink_\(index)::zorder=\(index)"
            if let width, let height { mixer += " sink_\(index)::width=\(width) sink_\(index)::height=\(height)" }
        }
        var sinkIndex = 0
        // Under everything: the background.
        let bgra = "video/x-raw,format=BGRA,width=\(width),height=\(height),pixel-aspect-ratio=1/1"
        switch template.background {
        case .color(let color):
            branches.append("videotestsrc num-buffers=1 pattern=solid-color foreground-color=\(color.argb) ! \(bgra),framerate=1/1 ! mix.sink_0")
        case .picture(let name):
            branches.append(source(for: try named(name)) + " ! aspectratiocrop aspect-ratio=\(width)/\(height) ! videoscale ! videoconvert ! \(bgra) ! mix.sink_0")
        }
        pad(0, x: 0, y: 0)
        sinkIndex += 1
        // The shots, each in its slot.
        for (shot, slot) in zip(shots, template.slots) {
            guard let size = JPEGFile.dimensions(of: shot), size.width > 0, size.height > 0 else {
                throw CaptureError(.unreadableFile, "a shot to compose is not a JPEG picture")
            }
            let placed = Self.placement(of: size, in: slot)
            var branch = source(for: shot)
            if slot.fit == .cover {
                branch += " ! aspectratiocrop aspect-ratio=\(slot.width)/\(slot.height)"
            }
            if slot.rotation == 0 {
                branch += " ! videoscale ! videoconvert ! video/x-raw,format=BGRA,width=\(placed.width),height=\(placed.height),pixel-aspect-ratio=1/1"
                pad(sinkIndex, x: placed.x, y: placed.y)
            } else {
                // Turned at twice the size (at most ``turningSide`` square, so a large slot turns in
                // bounded memory) inside a transparent square its diagonal wide, then scaled to
                // that square on the picture, centred on the slot's centre.
                let diagonal = Int((Double(placed.width * placed.width + placed.height * placed.height)).squareRoot().rounded(.up)) + 2
                let scale = min(2, Double(Self.turningSide) / Double(diagonal))
                let (doubleWidth, doubleHeight) = (max(2, Int(Double(placed.width) * scale)), max(2, Int(Double(placed.height) * scale)))
                let doubleSide = max(Int((Double(diagonal) * scale).rounded(.up)), doubleWidth, doubleHeight)
                let (sides, ends) = ((doubleSide - doubleWidth) / 2, (doubleSide - doubleHeight) / 2)
                branch += " ! videoscale ! videoconvert ! video/x-raw,format=BGRA,width=\(doubleWidth),height=\(doubleHeight),pixel-aspect-ratio=1/1"
                    + " ! videobox border-alpha=0 left=-\(sides) right=-\(doubleSide - doubleWidth - sides) top=-\(ends) bottom=-\(doubleSide - doubleHeight - ends)"
                    + " ! rotate angle=\(-slot.rotation * .pi / 180) off-edge-pixels=clamp"  // rotate turns counter-clockwise
                let (centerX, centerY) = (Double(placed.x) + Double(placed.width) / 2, Double(placed.y) + Double(placed.height) / 2)
                pad(sinkIndex, x: Int((centerX - Double(diagonal) / 2).rounded()), y: Int((centerY - Double(diagonal) / 2).rounded()),
                    width: diagonal, height: diagonal)
            }
            branches.append(branch + " ! mix.sink_\(sinkIndex)")
            sinkIndex += 1
        }
        // Over the shots: frames and logos.
        for overlay in template.overlays {
            branches.append(source(for: try named(overlay.picture))
                + " ! videoscale ! videoconvert ! video/x-raw,format=BGRA,width=\(overlay.width),height=\(overlay.height),pixel-aspect-ratio=1/1 ! mix.sink_\(sinkIndex)")
            pad(sinkIndex, x: overlay.x, y: overlay.y)
            sinkIndex += 1
        }
        // Over everything: words, each centred on its point.
        // Their words and font are set by property once the pipeline is made, never quoted into it.
        let now = Date().timeIntervalSince1970
        var texts: [(name: String, markup: String, font: String)] = []
        let words = template.texts.enumerated().map { index, text in
            let shown = switch text.content {
            case .words(let words): words
            case .date(let format): String(strftime: format, secondsSince1970: now)
            }
            texts.append(("words\(index)", TextMark.escapedMarkup(shown), "\(text.font) \(text.size)px"))
            return " ! textoverlay name=words\(index) "
                + "auto-resize=false color=\(text.color.argb) halignment=position valignment=position line-alignment=center draw-shadow=false draw-outline=false "
                + "xpos=\(Double(text.x) / Double(width)) ypos=\(Double(text.y) / Double(height))"
        }.joined()
        self.texts = texts
        let made = switch output {
        case .jpeg(let quality): "videoconvert ! jpegenc quality=\(quality)"
        case .rgb(let turned): "videoconvert ! \(turned ? "videoflip video-direction=90r ! " : "")video/x-raw,format=RGB"
        }
        description = mixer + " ! \(bgra)" + words + " ! \(made) ! appsink name=output sync=false " + branches.joined(separator: " ")
        // Every picture's declared size, before a decoder allocates it.
        for picture in inputs {
            do {
                try PictureBudget.check(picture)
            } catch {
                throw CaptureError(.unreadableFile, "a picture to compose cannot be used: \(error.message)")
            }
        }
        self.inputs = inputs
    }

    /// The largest square a slot is turned in, in pixels: 4096 (64 MB as BGRA).
    static let turningSide = 4096

    /// Sets each text overlay's words and font in `pipeline`, made from ``description``.
    func setWords(in pipeline: Pipeline) throws(CaptureError) {
        for text in texts {
            guard let overlay = pipeline.element(named: text.name) else { throw CaptureError(.pipeline, "the composition lacks its text element") }
            do {
                try overlay.setProperty("text", text.markup)
                try overlay.setProperty("font-desc", text.font)
            } catch {
                throw CaptureError.converting(error, context: "the template's words could not be set")
            }
        }
    }

    private static func isJPEG(_ bytes: [UInt8]) -> Bool { bytes.count > 2 && bytes[0] == 0xFF && bytes[1] == 0xD8 }

    /// Where a shot of `size` goes in `slot` (unturned): the whole slot when it covers it, else the
    /// largest rectangle of the shot's shape inside it, centred.
    static func placement(of size: (width: Int, height: Int), in slot: CompositionTemplate.Slot) -> (x: Int, y: Int, width: Int, height: Int) {
        guard slot.fit == .contain else { return (slot.x, slot.y, slot.width, slot.height) }
        let scale = min(Double(slot.width) / Double(size.width), Double(slot.height) / Double(size.height))
        let (width, height) = (max(2, Int(Double(size.width) * scale) / 2 * 2), max(2, Int(Double(size.height) * scale) / 2 * 2))
        return (slot.x + (slot.width - width) / 2, slot.y + (slot.height - height) / 2, width, height)
    }
}
