import GStreamer

/// The few failures GStreamer tells only in English text, not by error domain, code or source
/// element: each rule here names the text, what it means, and the GStreamer version it was seen
/// on. Everything else is classified by domain, code and element (``CaptureError/init(_:device:preview:)``).
enum GStreamerMessageText: CaseIterable {
    /// xvimagesink on a display without the XVideo extension (Xvfb): "No Xv Port" or
    /// "Could not initialise Xv output" (GStreamer 1.22, xvimagesink).
    case noXVideo
    /// A window sink with no X display to open: "Could not initialise X output" or "Could not
    /// open display" (GStreamer 1.22, ximagesink and xvimagesink).
    case noDisplay
    /// The user closed the preview window: "Output window was closed" (GStreamer 1.22, the X sinks).
    case windowClosed

    private var phrases: [String] {
        switch self {
        case .noXVideo: ["No Xv Port", "Could not initialise Xv output"]
        case .noDisplay: ["Could not initialise X output", "Could not open display"]
        case .windowClosed: ["Output window was closed"]
        }
    }

    /// The rule an error's message or debug text matches, if any.
    static func match(_ error: GStreamerError) -> GStreamerMessageText? {
        let text = error.message + " " + (error.debugInfo ?? "")
        return allCases.first { rule in rule.phrases.contains { text.contains($0) } }
    }
}
