internal import CGStreamer
import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Receives every message of one bus, on the thread that posts it, and hands it on:
/// to subscribers' streams, and to the record that state changes and end-of-stream waits read.
///
/// It is installed as the bus's sync handler, so no GLib main loop or bus thread is needed,
/// and an error is recorded before the call that caused it returns. It never blocks.
final class BusDispatcher: Sendable {
    private struct State {
        var subscribers: [Int: AsyncStream<Message>.Continuation] = [:]
        var nextSubscriberID = 0
        /// Errors posted since the last ``beginWatch()``, oldest first, at most a few.
        var errors: [Message.Report] = []
        var endOfStream = false
        /// The window a video sink that asks for one draws into.
        var windowHandle: UInt?
    }

    private let state = Mutex(State())

    /// The dispatcher of a pipeline's bus, installed on first use. Every wrapper of the same
    /// pipeline shares it, since a bus has room for one sync handler only.
    static func attached(to pipeline: UnsafeMutablePointer<GstElement>) -> BusDispatcher {
        let object = upcast(pipeline, to: GObject.self)
        // Under a lock, so two wrappers made at once install one dispatcher.
        return attachment.withLock { _ in attach(to: pipeline, object: object) }
    }

    private static func attach(to pipeline: UnsafeMutablePointer<GstElement>, object: UnsafeMutablePointer<GObject>) -> BusDispatcher {
        if let existing = g_object_get_data(object, dataKey) {
            return Unmanaged<BusDispatcher>.fromOpaque(existing).takeUnretainedValue()
        }
        let bus = gst_element_get_bus(pipeline)!
        defer { gst_object_unref(bus) }
        let dispatcher = install(on: bus)
        // Unretained: the bus's sync handler holds the dispatcher as long as the pipeline has the bus.
        g_object_set_data(object, dataKey, Unmanaged.passUnretained(dispatcher).toOpaque())
        return dispatcher
    }

    private static let dataKey = "camctl-bus-dispatcher"
    private static let attachment = Mutex(())

    /// Installs a dispatcher as the bus's sync handler; the bus keeps it alive until replaced.
    static func install(on bus: UnsafeMutablePointer<GstBus>) -> BusDispatcher {
        let dispatcher = BusDispatcher()
        gst_bus_set_sync_handler(bus, { _, message, userData in
            guard let message, let userData else { return GST_BUS_PASS }
            let dispatcher = Unmanaged<BusDispatcher>.fromOpaque(userData).takeUnretainedValue()
            // A sink asks for its window on its own thread and waits for the answer.
            if gst_is_video_overlay_prepare_window_handle_message(message) != 0,
               let handle = dispatcher.windowHandle, let sink = message.pointee.src {
                gst_video_overlay_set_window_handle(OpaquePointer(sink), guintptr(handle))
            }
            dispatcher.dispatch(Message(parsing: message))
            // A sync handler that drops a message owns it and must release it.
            gst_message_unref(message)
            return GST_BUS_DROP
        }, Unmanaged.passRetained(dispatcher).toOpaque(), { userData in
            // The bus goes with its pipeline: the message streams end then.
            Unmanaged<BusDispatcher>.fromOpaque(userData!).takeRetainedValue().finishAll()
        })
        return dispatcher
    }

    private func dispatch(_ message: Message) {
        let subscribers = state.withLock { state in
            switch message {
            case .error(let report) where state.errors.count < 8:
                state.errors.append(report)
            case .endOfStream:
                state.endOfStream = true
            default:
                break
            }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers {
            subscriber.yield(message)
        }
    }

    /// The window given to a video sink that asks for one (`nil`: the sink opens its own).
    var windowHandle: UInt? {
        get { state.withLock { $0.windowHandle } }
        set { state.withLock { $0.windowHandle = newValue } }
    }

    /// A stream of the messages posted from now on, buffering at most `limit` unread ones.
    func subscribe(bufferingNewest limit: Int) -> AsyncStream<Message> {
        let (stream, continuation) = AsyncStream.makeStream(of: Message.self, bufferingPolicy: .bufferingNewest(limit))
        let id = state.withLock { state in
            defer { state.nextSubscriberID += 1 }
            state.subscribers[state.nextSubscriberID] = continuation
            return state.nextSubscriberID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Forgets earlier errors and end-of-stream, before a state change whose failure must be explained.
    func beginWatch() {
        state.withLock { state in
            state.errors.removeAll()
            state.endOfStream = false
        }
    }

    /// The first error posted since ``beginWatch()``.
    var firstError: Message.Report? {
        state.withLock { $0.errors.first }
    }

    /// The first error posted since ``beginWatch()``, waiting at most `timeout` for one to come:
    /// a bin tells that a change of state failed before it passes on the error that made it fail.
    func firstError(waitingAtMost timeout: Duration) async -> Message.Report? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let report = firstError { return report }
            guard ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Whether end-of-stream was posted since ``beginWatch()``.
    var hasReachedEndOfStream: Bool {
        state.withLock { $0.endOfStream }
    }

    /// Ends every subscriber's stream.
    func finishAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers {
            subscriber.finish()
        }
    }
}
