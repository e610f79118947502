internal import CX11

/// A black window covering a whole X screen, with no border and no pointer shown: where a
/// kiosk's preview is drawn (a video sink draws into it through ``handle``).
///
/// It asks the window manager for full screen (`_NET_WM_STATE_FULLSCREEN`) and is placed over
/// the whole screen itself, so it covers the screen with a window manager or without one (a
/// kiosk that runs X alone). The window goes, and its display connection closes, with the value.
public final class FullScreenWindow: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable; the display connection is used
    // only by init and deinit, which no other call can overlap.

    /// The screen's width in pixels.
    public let width: Int
    /// The screen's height in pixels.
    public let height: Int
    /// The X window's id, as GStreamer's video overlay takes it.
    public let handle: UInt

    private let api: camctl_x11
    private let display: OpaquePointer
    private let cursor: Cursor

    /// Opens the window on `displayName` (such as `:0`; `nil`: the `DISPLAY` environment variable's).
    ///
    /// - Throws: ``WindowError`` when Xlib is not installed or the display cannot be opened.
    public init(display displayName: String?) throws(WindowError) {
        guard let api = X11.api else {
            throw WindowError("the preview cannot fill the screen: Xlib (libX11.so.6) is not installed; install libx11-6")
        }
        guard let display = api.open_display(displayName) else {
            let name = displayName ?? "the display in DISPLAY"
            throw WindowError("the preview cannot fill the screen: X display \(name) cannot be opened (is DISPLAY set, and is X running?)")
        }
        let screen = api.default_screen(display)
        let (width, height) = (api.display_width(display, screen), api.display_height(display, screen))
        let black = api.black_pixel(display, screen)
        let window = api.create_simple_window(display, api.root_window(display, screen), 0, 0, UInt32(width), UInt32(height), 0, black, black)
        _ = api.store_name(display, window, "camctl")
        // Full screen as a window manager understands it, set before the window is shown.
        let state = api.intern_atom(display, "_NET_WM_STATE", 0)
        var fullScreen = api.intern_atom(display, "_NET_WM_STATE_FULLSCREEN", 0)
        withUnsafeBytes(of: &fullScreen) { bytes in
            _ = api.change_property(display, window, state, Atom(XA_ATOM), 32, PropModeReplace,
                                    bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
        }
        // A window manager asked to close the window (Alt+F4) sends a message nobody reads instead
        // of cutting camctl's connection, which would end camctl mid-photo; q ends the preview.
        var deleteWindow = api.intern_atom(display, "WM_DELETE_WINDOW", 0)
        _ = api.set_wm_protocols(display, window, &deleteWindow, 1)
        // An empty pointer: a kiosk shows no arrow over the picture.
        var blank: [CChar] = [0]
        let pixmap = api.create_bitmap_from_data(display, window, &blank, 1, 1)
        var foreground = XColor(), background = XColor()
        let cursor = api.create_pixmap_cursor(display, pixmap, pixmap, &foreground, &background, 0, 0)
        _ = api.define_cursor(display, window, cursor)
        _ = api.free_pixmap(display, pixmap)
        _ = api.map_raised(display, window)
        // The window exists on the server before its id is handed to a sink on another connection.
        _ = api.sync(display, 0)
        (self.api, self.display, self.cursor) = (api, display, cursor)
        (self.width, self.height, handle) = (Int(width), Int(height), UInt(window))
    }

    deinit {
        _ = api.destroy_window(display, Window(handle))
        _ = api.free_cursor(display, cursor)
        _ = api.close_display(display)
    }
}

/// Why a window cannot open, in one sentence that says what to do.
public struct WindowError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }

    init(_ message: String) {
        self.message = message
    }
}

/// Xlib, loaded on first use.
private enum X11 {
    static let api: camctl_x11? = {
        var api = camctl_x11()
        return camctl_x11_load(&api) != 0 ? api : nil
    }()
}
