import FoundationEssentials

/// How a preview fills the whole screen (``PreviewConfiguration/fillsScreen``), which depends on
/// its sink.
enum ScreenFilling: Equatable {
    /// A window of the session's own covers the X screen (`display`: the sink's `display=`
    /// setting, else the `DISPLAY` variable's), and the sink draws into it, the picture scaled to
    /// the screen: ximagesink, xvimagesink, glimagesink, and autovideosink on X.
    case window(display: String?)
    /// The sink's own full-screen setting: waylandsink, and autovideosink where there is only Wayland.
    case waylandSink
    /// The sink covers the screen by itself: kmssink, on a console.
    case bySink

    /// The sinks that can fill a screen, as a failure names them.
    static let sinks = "ximagesink, xvimagesink, waylandsink, kmssink or autovideosink"

    /// How `sink` (a gst-launch description) fills the screen, given the environment's displays.
    ///
    /// - Throws: ``CaptureError/Code/sinkUnavailable`` for a sink that shows no window (fakesink).
    init(sink: String, environment: [String: String]) throws(CaptureError) {
        let words = sink.split(separator: " ")
        let name = words.first.map(String.init) ?? ""
        let hasX = !(environment["DISPLAY"] ?? "").isEmpty, hasWayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty
        let display = words.first { $0.hasPrefix("display=") }.map { String($0.dropFirst("display=".count)).trimmingQuotes }
        switch name {
        case "kmssink": self = .bySink
        case "waylandsink": self = .waylandSink
        case "autovideosink" where !hasX && hasWayland: self = .waylandSink
        case "ximagesink", "xvimagesink", "glimagesink", "autovideosink": self = .window(display: display)
        default:
            throw CaptureError(.sinkUnavailable, "\(name) shows no window, so the preview cannot fill the screen; use \(Self.sinks)")
        }
    }

    /// The sink's description as the pipeline has it: Wayland's told to fill the screen.
    func sink(_ sink: String) -> String {
        guard self == .waylandSink else { return sink }
        let automatic = sink.split(separator: " ").first == "autovideosink"
        return (automatic ? "waylandsink" + sink.dropFirst("autovideosink".count) : sink) + " fullscreen=true"
    }
}

extension PreviewConfiguration {
    /// Checks that the sink can show the preview as configured: one that fills the screen must
    /// show a window.
    ///
    /// - Throws: ``CaptureError/Code/sinkUnavailable`` for a sink that shows no window.
    public func validate() throws(CaptureError) {
        guard fillsScreen else { return }
        _ = try ScreenFilling(sink: sink, environment: ProcessInfo.processInfo.environment)
    }
}

private extension String {
    /// The text without the quotes around it, as gst-launch reads a quoted value.
    var trimmingQuotes: String {
        count >= 2 && first == "\"" && last == "\"" ? String(dropFirst().dropLast()) : self
    }
}
