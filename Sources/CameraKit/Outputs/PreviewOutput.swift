import GStreamer
import Synchronization

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
    }

    private let state = Mutex(State())

    init() {}

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
        set {
            let overlay = state.withLock { state in
                state.overlayText = newValue
                return state.textOverlay
            }
            if let overlay { Self.show(newValue, on: overlay) }
        }
    }

    private static func show(_ text: String?, on overlay: Element) {
        try? overlay.setProperty("text", text ?? "")
        try? overlay.setProperty("silent", text == nil)
    }

    /// Connects the output to the running session's preview valve (and text overlay), keeping the
    /// paused state and the text.
    func attach(valve: Element, textOverlay: Element?) {
        let (paused, text) = state.withLock { state in
            state.valve = valve
            state.textOverlay = textOverlay
            return (state.isPaused, state.overlayText)
        }
        try? valve.setProperty("drop", paused)
        if let textOverlay { Self.show(text, on: textOverlay) }
    }

    func detach() {
        state.withLock { state in
            state.valve = nil
            state.textOverlay = nil
        }
    }
}
