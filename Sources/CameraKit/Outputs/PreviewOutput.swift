import Blocking
import Dispatch
import FoundationEssentials
import Glibc
import GStreamer
import ImageMetadata
import Synchronization
import Windowing

/// The session's preview in a video sink (a window, or any sink), as AVCaptureVideoPreviewLayer.
///
/// Pausing stops only the preview branch; photos and frames go on (a camera app pauses
/// the preview while its gallery is open).
public final class PreviewOutput: Sendable {
    private struct State {
        var valve: Element?
        var textOverlay: Element?
        var isPaused = false
        var overlayText: String?
        var caption: String?
        /// The fonts of the large text and of the caption, sized to the picture as shown.
        var fonts = (large: "Sans Bold 24", caption: "Sans 12")
        /// The element that draws pictures over the preview (`gdkpixbufoverlay`, built when the
        /// first picture is drawn, in place of the `identity` that holds its place), whether the
        /// last photo is one, and the picture's size as shown.
        var lastPhoto: Element?
        var lastPhotoPlace: (slot: Element, pipeline: Pipeline)?
        var buildingOverlay: Task<Element?, Never>?
        /// The latest drawing asked for while the overlay is being built.
        var pendingDraw: (@Sendable (Element) -> Void)?
        var drawsLastPhoto = false
        /// The thumbnail the corner shows when no whole picture covers it.
        var cornerThumbnail: [UInt8]?
        var frameInterval = Duration.milliseconds(100)
        var shownSize = (width: 0, height: 0)
        /// The element that dims the preview, how long a dim lasts, and which dim is the latest.
        var shutter: Element?
        var shutterTime = Duration.milliseconds(100)
        var shutterCount = 0
        /// How the preview fills the screen, while one that fills it runs, and the window covering
        /// the screen when that is how (on X).
        var filling: ScreenFilling?
        var screen: FullScreenWindow?
    }

    /// Where the last photo's thumbnail is written for the preview to draw: a file of this
    /// process's own, removed when the session stops.
    private let lastPhotoFile = FileManager.default.temporaryDirectory
        .appendingPathComponent("camctl-last-photo-\(getpid())-\(UUID().uuidString).jpg")

    private let state = Mutex(State())
    private let keys = Broadcast<String>()

    init() {}

    /// The keys pressed in the preview's window from now on, by their X names (`space`,
    /// `Return`, `q`, `BackSpace`, `KP_Add`): a kiosk's push-button is such a key. Window sinks
    /// that tell GStreamer's navigation events report them (ximagesink, xvimagesink, glimagesink),
    /// in a window of their own or one filling the screen.
    public func keyPresses() -> AsyncStream<String> {
        keys.subscribe(bufferingNewest: 32)
    }

    /// Whether the preview is paused.
    public var isPaused: Bool { state.withLock { $0.isPaused } }

    /// Stops showing new frames; the window keeps the last one.
    public func pause() {
        setPaused(true)
    }

    /// Shows frames again.
    public func resume() {
        setPaused(false)
    }

    private func setPaused(_ paused: Bool) {
        let valve = state.withLock { state in
            state.isPaused = paused
            return state.valve
        }
        try? valve?.setProperty("drop", paused)
    }

    /// The text drawn large in the middle of the preview (a booth's countdown), or
    /// `nil` for none. Needs ``PreviewConfiguration/showsText``.
    public var overlayText: String? {
        get { state.withLock { $0.overlayText } }
        set { changeText { $0.overlayText = newValue } }
    }

    /// One line drawn small at the foot of the preview on a shaded band (a review's hint), or
    /// `nil` for none; the large text, while there is one, is drawn instead. Needs
    /// ``PreviewConfiguration/showsText``.
    public var caption: String? {
        get { state.withLock { $0.caption } }
        set { changeText { $0.caption = newValue } }
    }

    private func changeText(_ change: (inout State) -> Void) {
        let (overlay, text) = state.withLock { state in
            change(&state)
            return (state.textOverlay, Self.text(of: state))
        }
        if let overlay { Self.show(text, on: overlay) }
    }

    /// Shows a photo's thumbnail (a JPEG) in the preview's lower left corner, a fifth of its
    /// width, until the next one, instead of any picture shown whole; `nil` shows none. Needs
    /// ``PreviewConfiguration/showsLastPhoto`` to draw; does nothing while the session is stopped.
    public func showLastPhoto(_ thumbnail: [UInt8]?) {
        let (element, draws) = state.withLock { state in
            state.cornerThumbnail = thumbnail
            state.pendingDraw = nil
            return (state.lastPhoto, state.drawsLastPhoto)
        }
        try? element?.setProperty("alpha", 0.0)
        guard draws, let thumbnail else { return }
        draw(thumbnail) { picture, shown in
            let width = max(2, shown.width / 5), margin = max(1, shown.width / 40)
            let height = min(shown.height - 2 * margin, width * picture.height / picture.width)
            return (margin, shown.height - height - margin, width, height)
        }
    }

    /// Shows a picture (a JPEG, such as a booth's composed strip) over the whole preview, fitted
    /// inside an even margin and centred, until the next photo. Needs ``PreviewConfiguration/showsPictures``.
    public func showWhole(_ picture: [UInt8]) {
        draw(picture) { picture, shown in
            let margin = max(1, shown.width / 40)
            let scale = min(Double(shown.width - 2 * margin) / Double(picture.width), Double(shown.height - 2 * margin) / Double(picture.height))
            let width = max(2, Int(Double(picture.width) * scale)), height = max(2, Int(Double(picture.height) * scale))
            return ((shown.width - width) / 2, (shown.height - height) / 2, width, height)
        }
    }

    /// Covers the whole preview with a still (a JPEG, such as the camera's last frame mirrored while
    /// it is switched) and returns once a frame has been drawn with it, at most three frame
    /// intervals later, so a window holds it while no frames come; `false` when it cannot be shown.
    func cover(with still: [UInt8]) async -> Bool {
        let element = await overlay(), interval = state.withLock { $0.frameInterval }
        guard let output = element?.staticPad(named: "src") else { return false }
        draw(still) { _, shown in (0, 0, shown.width, shown.height) }
        // The second frame to pass: the first may have been drawn before the still was loaded.
        _ = await output.presentationTime(ofBuffer: 2, waitingAtMost: interval * 3)
        return true
    }

    /// Takes a cover away: the corner shows the last photo again, or nothing. Safe on a streaming thread.
    func uncover() {
        showLastPhoto(state.withLock { $0.cornerThumbnail })
    }

    /// Draws a JPEG over the preview where `place` puts it, given the picture's and the preview's sizes.
    private func draw(_ jpeg: [UInt8], place: ((width: Int, height: Int), (width: Int, height: Int)) -> (x: Int, y: Int, width: Int, height: Int)) {
        let (hasPlace, shown) = state.withLock { ($0.lastPhoto != nil || $0.lastPhotoPlace != nil, $0.shownSize) }
        guard hasPlace, let size = JPEGFile.dimensions(of: jpeg), size.width > 0, size.height > 0,
              shown.width > 0, shown.height > 0 else { return }
        let (x, y, width, height) = place((size.width, size.height), shown)
        guard (try? Data(jpeg).write(to: lastPhotoFile, options: .atomic)) != nil else { return }
        let path = lastPhotoFile.path
        let show: @Sendable (Element) -> Void = { element in
            // A preview decoration: a picture that cannot be shown leaves the preview as it was.
            try? element.setProperty("overlay-width", width)
            try? element.setProperty("overlay-height", height)
            try? element.setProperty("offset-x", x)
            try? element.setProperty("offset-y", y)
            try? element.setProperty("location", path)  // loads the picture
            try? element.setProperty("alpha", 1.0)
        }
        let built = state.withLock { state -> Element? in
            if state.lastPhoto == nil { state.pendingDraw = show }
            return state.lastPhoto
        }
        if let built {
            show(built)
        } else {
            Task { _ = await overlay() }
        }
    }

    /// The element that draws pictures over the preview, built in its place the first time (the
    /// preview's flow held meanwhile), with the drawing asked for meanwhile; `nil` while stopped
    /// or without a place for it. Loading gdk-pixbuf costs a preview's start 11 ms, so a preview
    /// that shows no picture never pays it.
    private func overlay() async -> Element? {
        let (built, building) = state.withLock { state -> (Element?, Task<Element?, Never>?) in
            if let built = state.lastPhoto { return (built, nil) }
            guard let place = state.lastPhotoPlace else { return (nil, nil) }
            if state.buildingOverlay == nil {
                state.buildingOverlay = Task { [self] in await buildOverlay(replacing: place.slot, in: place.pipeline) }
            }
            return (nil, state.buildingOverlay)
        }
        if let built { return built }
        return await building?.value
    }

    private func buildOverlay(replacing slot: Element, in pipeline: Pipeline) async -> Element? {
        guard let input = slot.staticPad(named: "sink"), let output = slot.staticPad(named: "src"),
              let upstream = input.peer, let downstream = output.peer,
              let overlay = try? Element(factory: "gdkpixbufoverlay") else { return nil }
        let hold = await upstream.block(waitingAtMost: SessionGraph.holdWait)
        let placed: Bool
        do {
            upstream.unlink(from: input)
            output.unlink(from: downstream)
            try pipeline.add(overlay)
            try SessionGraph.pad("src", of: overlay).link(to: downstream)
            try upstream.link(to: try SessionGraph.pad("sink", of: overlay))
            try overlay.syncStateWithParent()
            placed = true
        } catch {
            placed = false
        }
        hold.remove()
        if placed {
            try? await slot.changeState(to: .null)
            try? pipeline.remove(slot)
        }
        let show = state.withLock { state -> (@Sendable (Element) -> Void)? in
            guard state.lastPhotoPlace?.slot === slot else { return nil }  // the session stopped meanwhile
            state.buildingOverlay = nil
            guard placed else { return nil }
            (state.lastPhoto, state.lastPhotoPlace) = (overlay, nil)
            defer { state.pendingDraw = nil }
            return state.pendingDraw
        }
        guard placed else { return nil }
        show?(overlay)
        return overlay
    }

    /// Dims the preview for two frames (at least a tenth of a second), as a shutter confirms a
    /// photo; returns at once. Needs ``PreviewConfiguration/showsShutter``.
    public func showShutter() {
        let (element, time, count) = state.withLock { state in
            state.shutterCount += 1
            return (state.shutter, state.shutterTime, state.shutterCount)
        }
        guard let element else { return }
        try? element.setProperty("brightness", -0.6)
        // On a timer of its own, not a task: the preview brightens on time however busy Swift's
        // shared threads are.
        let (whole, fraction) = time.components
        DispatchQueue.global().asyncAfter(deadline: .now() + Double(whole) + Double(fraction) / 1e18) { [self] in
            // A later shot's dim is not cut short by this one's end.
            guard state.withLock({ $0.shutterCount == count }) else { return }
            try? element.setProperty("brightness", 0.0)
        }
    }

    /// The preview's brightness now: below 0 while it dims for a photo.
    var shutterBrightness: Double? {
        state.withLock { $0.shutter }.flatMap { try? $0.property("brightness", as: Double.self) }
    }

    /// What the text overlay draws: the large text, else the caption, in its font and place.
    private struct Text {
        let words: String
        let font: String
        let isCaption: Bool
    }

    private static func text(of state: State) -> Text? {
        if let large = state.overlayText { return Text(words: large, font: state.fonts.large, isCaption: false) }
        return state.caption.map { Text(words: $0, font: state.fonts.caption, isCaption: true) }
    }

    private static func show(_ text: Text?, on overlay: Element) {
        if let text {
            try? overlay.setProperty("font-desc", .string(text.font))
            try? overlay.setProperty("valignment", .string(text.isCaption ? "bottom" : "center"))
            try? overlay.setProperty("shaded-background", text.isCaption)
        }
        try? overlay.setProperty("text", text?.words ?? "")
        try? overlay.setProperty("silent", text == nil)
    }

    /// The preview's size: the image stage's picture scaled down to fit, before it is turned.
    static func previewCaps(_ image: ImageStage, _ preview: PreviewConfiguration) -> String {
        let picture = image.outputSize
        let (width, height) = fit(picture.width, picture.height, into: preview.maximumWidth, preview.maximumHeight, scalingUp: preview.scalesUp)
        return "video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1"
    }

    /// The font of the text drawn over the preview (a countdown's digits), sized to the picture as
    /// shown (after turning): digits four tenths of its height, and two of them narrower than it,
    /// so they are whole and centred at every size.
    static func textFont(_ image: ImageStage, _ preview: PreviewConfiguration) -> String {
        let (shownWidth, shownHeight) = shownSize(image, preview)
        // A digit of "Sans Bold N" is N pixels tall and three quarters of that wide.
        return "Sans Bold \(max(6, min(shownHeight * 2 / 5, shownWidth * 11 / 20)))"
    }

    /// The font of a caption: a line of about fifty characters fits across the picture as shown.
    static func captionFont(_ image: ImageStage, _ preview: PreviewConfiguration) -> String {
        let (shownWidth, shownHeight) = shownSize(image, preview)
        return "Sans \(max(6, min(shownHeight / 24, shownWidth / 36)))"
    }

    /// The preview's picture as shown: fitted into the preview's largest size, then turned.
    static func shownSize(_ image: ImageStage, _ preview: PreviewConfiguration) -> (width: Int, height: Int) {
        let picture = image.outputSize
        let (width, height) = fit(picture.width, picture.height, into: preview.maximumWidth, preview.maximumHeight, scalingUp: preview.scalesUp)
        return [90, 270].contains(image.settings.rotation) ? (height, width) : (width, height)
    }

    /// The largest even size with the frame's aspect ratio inside the box, no larger than the frame
    /// unless `scalingUp`.
    private static func fit(_ width: Int, _ height: Int, into maxWidth: Int, _ maxHeight: Int, scalingUp: Bool) -> (Int, Int) {
        let scale = min(scalingUp ? .infinity : 1, min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height)))
        return (max(2, Int(Double(width) * scale) / 2 * 2), max(2, Int(Double(height) * scale) / 2 * 2))
    }
}

extension PreviewOutput {
    /// Opens the window a preview that fills an X screen is drawn into, before the pipeline that
    /// draws into it is laid out (its picture is sized to the screen); closes one no longer asked for.
    ///
    /// - Throws: ``CaptureError/Code/sinkUnavailable`` when the sink shows no window or the
    ///   display cannot be opened.
    func openScreen(for preview: PreviewConfiguration?) async throws(CaptureError) {
        guard let preview, preview.fillsScreen else { return await closeScreen() }
        let filling = try ScreenFilling(sink: preview.sink, environment: ProcessInfo.processInfo.environment)
        guard case .window(let display) = filling else {
            await closeScreen()
            state.withLock { $0.filling = filling }
            return
        }
        guard state.withLock({ $0.screen }) == nil else { return }
        // Opening a display talks to the X server: off Swift's shared threads, and within a deadline.
        switch await Self.openWindow(on: display) {
        case .success(let screen)?: state.withLock { ($0.filling, $0.screen) = (filling, screen) }
        case .failure(let error)?: throw CaptureError(.sinkUnavailable, error.message)
        case nil:
            let name = display ?? "the display in DISPLAY"
            throw CaptureError(.sinkUnavailable, "X display \(name) did not answer within \(Int(Self.displayDeadline.components.seconds)) seconds; "
                + "check that its X server runs and is not stopped", remedy: .useSink(["fakesink", "kmssink"]))
        }
    }

    /// How long an X server has to answer when its display is opened: one that never answers
    /// would otherwise hold the command for ever.
    static let displayDeadline = Duration.seconds(10)

    /// The full-screen window opened on `display` on the window lane, or `nil` when the X server
    /// did not answer within ``displayDeadline`` (a window it opens later is closed there at once).
    private static func openWindow(on display: String?) async -> Result<FullScreenWindow, WindowError>? {
        let answer = OnceAnswer<Result<FullScreenWindow, WindowError>?>()
        let opening = Task {
            let opened = await windowLane.run { Result { () throws(WindowError) in try FullScreenWindow(display: display) } }
            if !answer.give(opened), case .success(let late) = opened {
                await windowLane.run { _ = late }  // too late: closed where it was opened
            }
        }
        let deadline = Task {
            try? await Task.sleep(for: displayDeadline)
            answer.give(nil)
        }
        let opened = await answer.value
        deadline.cancel()
        _ = opening
        return opened
    }

    /// Closes the window covering the screen, if one is open.
    func closeScreen() async {
        let screen = state.withLock { state in
            defer { (state.filling, state.screen) = (nil, nil) }
            return state.screen
        }
        guard let screen else { return }
        await Self.windowLane.run { _ = screen }  // the window goes there, with its display connection
    }

    /// Where windows are opened and closed.
    private static let windowLane = BlockingLane(label: "preview.window")

    /// The preview as drawn: on a screen it fills, its sink told so (Wayland's) or fitted to the
    /// whole screen (a window of ours), scaled up as well as down.
    func drawn(_ preview: PreviewConfiguration) -> PreviewConfiguration {
        let (filling, screen) = state.withLock { ($0.filling, $0.screen) }
        guard let filling else { return preview }
        var drawn = preview
        drawn.sink = filling.sink(preview.sink)
        if let screen { (drawn.maximumWidth, drawn.maximumHeight, drawn.scalesUp) = (screen.width, screen.height, true) }
        return drawn
    }
}

extension PreviewOutput: SessionOutput {
    /// A leaky queue, the valve that pauses, the fit into the preview's size, the turn and mirror,
    /// the text, and the sink.
    func branch(in layout: SessionPipeline) -> String? {
        guard let preview = layout.configuration.preview.map(drawn) else { return nil }
        let image = layout.image
        return "split. ! queue name=preview_queue leaky=downstream max-size-buffers=2 max-size-bytes=0 max-size-time=0 "
            + "! valve \(SessionElement.previewValve.assignment) ! "
            + PreviewFit.elements(size: .previewSize, orientation: .previewOrientation, caps: Self.previewCaps(image, preview), image: image) + " ! "
            + (preview.showsShutter ? "videobalance \(SessionElement.shutter.assignment) ! " : "")
            + (preview.showsLastPhoto || preview.showsPictures ? "identity \(SessionElement.lastPhoto.assignment) ! " : "")
            + (preview.showsText ? "textoverlay \(SessionElement.previewText.assignment) silent=true valignment=center halignment=center "
                + "auto-resize=false ! videoconvert ! " : "")
            + preview.sink
    }

    /// Takes the valve (and text overlay), keeping the paused state and the text.
    func attach(to graph: SessionGraph, layout: SessionPipeline) throws(CaptureError) {
        guard let preview = layout.configuration.preview.map(drawn) else { return }
        if let screen = state.withLock({ $0.screen }) { graph.pipeline.drawVideo(intoWindow: screen.handle) }
        // Keys pressed in the window come upstream as navigation events, through the fit.
        try graph.element(.previewOrientation).staticPad(named: "src")?.onKeyPress { [keys] key in keys.send(key) }
        let valve = try graph.element(.previewValve)
        let textOverlay = preview.showsText ? try graph.element(.previewText) : nil
        let lastPhoto = preview.showsLastPhoto || preview.showsPictures ? try graph.element(.lastPhoto) : nil
        let shutter = preview.showsShutter ? try graph.element(.shutter) : nil
        let frameRate = layout.format.frameRate.doubleValue
        let (paused, text) = state.withLock { state in
            state.fonts = (Self.textFont(layout.image, preview), Self.captionFont(layout.image, preview))
            state.valve = valve
            state.textOverlay = textOverlay
            (state.lastPhoto, state.lastPhotoPlace, state.buildingOverlay) = (nil, lastPhoto.map { ($0, graph.pipeline) }, nil)
            state.drawsLastPhoto = preview.showsLastPhoto
            state.shownSize = Self.shownSize(layout.image, preview)
            state.shutter = shutter
            state.shutterTime = .milliseconds(max(100, Int(2000 / max(1, frameRate))))
            state.frameInterval = .milliseconds(max(20, Int(1000 / max(1, frameRate))))
            return (state.isPaused, Self.text(of: state))
        }
        try? valve.setProperty("drop", paused)
        if let textOverlay { Self.show(text, on: textOverlay) }
    }

    /// Fits and turns the preview as the new settings say.
    func imageChanged(in graph: SessionGraph, layout: SessionPipeline) async throws(CaptureError) {
        guard let preview = layout.configuration.preview.map(drawn) else { return }
        let image = layout.image
        try await PreviewFit.apply(to: graph, valve: .previewValve, size: .previewSize, orientation: .previewOrientation, caps: Self.previewCaps(image, preview), image: image)
        do {
            let text = state.withLock { state in
                state.shownSize = Self.shownSize(image, preview)
                state.fonts = (Self.textFont(image, preview), Self.captionFont(image, preview))
                return Self.text(of: state)
            }
            if preview.showsText { Self.show(text, on: try graph.element(.previewText)) }
        } catch {
            throw CaptureError.converting(error, context: "the preview could not be changed")
        }
    }

    func detach(_ reason: CaptureError) {
        state.withLock { state in
            state.valve = nil
            state.textOverlay = nil
            (state.lastPhoto, state.lastPhotoPlace, state.buildingOverlay, state.pendingDraw) = (nil, nil, nil, nil)
            state.shutter = nil
        }
        try? FileManager.default.removeItem(at: lastPhotoFile)
    }
}
