internal import CGStreamer

/// A connected signal handler; ``disconnect()`` stops it.
public final class SignalConnection: @unchecked Sendable {
    // @unchecked Sendable: immutable, and GObject's signal API is thread-safe.
    private let element: Element
    private let id: gulong

    init(element: Element, id: gulong) {
        self.element = element
        self.id = id
    }

    /// Stops calling the handler.
    public func disconnect() {
        g_signal_handler_disconnect(upcast(element.raw, to: GObject.self), id)
    }
}

extension Element {
    /// Emits an action signal that takes no arguments and returns nothing, such as camerabin's
    /// `start-capture`.
    public func emit(_ signal: String) {
        cgst_emit_action(upcast(raw, to: GObject.self), signal)
    }

    /// Calls `handler` when the element creates a pad while running, as decoders and
    /// demuxers do once they know what a stream holds. Runs on a streaming thread.
    @discardableResult
    public func onPadAdded(_ handler: @escaping @Sendable (Pad) -> Void) -> SignalConnection {
        typealias PadAdded = @convention(c) (UnsafeMutablePointer<GstElement>?, UnsafeMutablePointer<GstPad>?, gpointer?) -> Void
        let callback: PadAdded = { _, pad, userData in
            guard let pad, let userData else { return }
            CallbackBox<@Sendable (Pad) -> Void>.value(userData)(Pad(retaining: pad))
        }
        let id = g_signal_connect_data(
            upcast(raw, to: GObject.self), "pad-added", unsafeBitCast(callback, to: GCallback.self),
            CallbackBox<@Sendable (Pad) -> Void>.retained(handler), releaseBoxOfClosure,
            GConnectFlags(rawValue: 0))
        return SignalConnection(element: self, id: id)
    }

    /// Calls `handler` each time the element emits `signal`, one whose handlers take no
    /// arguments and return nothing, such as a queue's `overrun`. Runs on the emitting thread (a
    /// streaming thread for a queue's signals).
    @discardableResult
    public func on(_ signal: String, _ handler: @escaping @Sendable () -> Void) -> SignalConnection {
        typealias Emitted = @convention(c) (UnsafeMutablePointer<GstElement>?, gpointer?) -> Void
        let callback: Emitted = { _, userData in
            guard let userData else { return }
            CallbackBox<@Sendable () -> Void>.value(userData)()
        }
        let id = g_signal_connect_data(
            upcast(raw, to: GObject.self), signal, unsafeBitCast(callback, to: GCallback.self),
            CallbackBox<@Sendable () -> Void>.retained(handler), releaseBoxOfClosure,
            GConnectFlags(rawValue: 0))
        return SignalConnection(element: self, id: id)
    }
}
