import GStreamer
import Synchronization

/// The session's preview in a video sink (a window, or any sink), as AVCaptureVideoPreviewLayer.
///
/// Pausing stops only the preview branch; photos and frames go on (seed 000 pauses the preview
/// while its gallery is open).
public final class PreviewOutput: Sendable {
    private struct State {
        var valve: Element?
        var isPaused = false
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

    /// Connects the output to the running session's preview valve, keeping the paused state.
    func attach(valve: Element) {
        let paused = state.withLock { state in
            state.valve = valve
            return state.isPaused
        }
        try? valve.setProperty("drop", paused)
    }

    func detach() {
        state.withLock { $0.valve = nil }
    }
}
