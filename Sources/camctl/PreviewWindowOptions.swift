import CameraKit
import FoundationEssentials

/// The preview's options, read alike by every command that shows one: its sink, and whether it
/// fills the screen. Keys pressed in its window act as keys typed in the terminal.
struct PreviewWindowOptions {
    static let options: [ParsedArguments.Option] = [.init(name: "--sink", value: "ELEMENT"), .init(name: "--fullscreen", value: nil)]

    static let help = """
        --fullscreen fills the screen with the preview, the picture scaled to it (a kiosk): on X with
        ximagesink, xvimagesink or autovideosink, on Wayland with waylandsink; kmssink always fills it.
        Keys pressed in the preview's window act as in the terminal, so a USB push-button (a key to
        the system) in front of a kiosk takes the photo.
        """

    /// The sink (a gst-launch description), or `nil` for no preview.
    let sink: String?
    /// Whether the preview fills the screen.
    let fillsScreen: Bool

    /// The options as given; `defaultSink` is the command's own sink when --sink is not given
    /// (--fullscreen alone asks for autovideosink).
    init(_ arguments: ParsedArguments, defaultSink: String?) {
        fillsScreen = arguments.flag("--fullscreen")
        sink = arguments.string("--sink") ?? defaultSink ?? (fillsScreen ? "autovideosink" : nil)
    }

    /// Refuses a sink that cannot show the preview as asked, before any camera starts.
    func check() throws(CommandFailure) {
        guard let sink else { return }
        try SessionOptions.checkSink(sink, from: "--sink")
        do {
            try PreviewConfiguration(sink: sink, fillsScreen: fillsScreen).validate()
        } catch {
            throw CommandFailure(error.message, exitCode: .usage)
        }
    }

    /// `preview` with the sink and screen filling asked for; `nil` without a sink.
    func preview(_ preview: PreviewConfiguration) -> PreviewConfiguration? {
        guard let sink else { return nil }
        var configured = preview
        (configured.sink, configured.fillsScreen) = (sink, fillsScreen)
        return configured
    }
}
