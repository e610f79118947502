internal import CGStreamer

/// A sink that hands the stream's samples to Swift: pulled one at a time, or as an async stream.
public final class AppSink: Element, @unchecked Sendable {
    // @unchecked Sendable: adds no state to Element's; GstAppSink's pull and callback calls are thread-safe.
    override class var requiredType: GType? { gst_app_sink_get_type() }

    private var appSink: UnsafeMutablePointer<GstAppSink> { upcast(raw) }

    /// Makes an app sink.
    ///
    /// - Parameters:
    ///   - name: The element name.
    ///   - caps: The formats it accepts; upstream elements negotiate to one of them.
    public convenience init(name: String? = nil, caps: Caps? = nil) throws(GStreamerError) {
        try self.init(factory: "appsink", name: name)
        self.caps = caps
    }

    /// The formats the sink accepts; `nil` accepts anything.
    public var caps: Caps? {
        get { gst_app_sink_get_caps(appSink).map { Caps(adopting: $0) } }
        set { gst_app_sink_set_caps(appSink, newValue?.raw) }
    }

    /// Whether the stream has ended and every sample has been taken.
    public var isEndOfStream: Bool { gst_app_sink_is_eos(appSink) != 0 }

    /// Waits for the next sample, blocking the calling thread.
    ///
    /// - Parameter timeout: How long to wait; `nil` waits until a sample or the end of the stream.
    /// - Returns: The sample, or `nil` at the end of the stream, on timeout, or when the pipeline is not playing.
    public func pullSample(timeout: Duration? = nil) -> Sample? {
        gst_app_sink_try_pull_sample(appSink, ClockTime.timeout(timeout)).map { Sample(adopting: $0) }
    }

    /// The sample the sink holds while paused (the preroll), waiting at most `timeout`.
    public func pullPreroll(timeout: Duration? = nil) -> Sample? {
        gst_app_sink_try_pull_preroll(appSink, ClockTime.timeout(timeout)).map { Sample(adopting: $0) }
    }

    /// Delivers every sample from now on as an async stream, taken on the streaming thread
    /// as it arrives so the pipeline never waits for the consumer.
    ///
    /// A consumer slower than the stream loses samples according to `policy`, and
    /// ``SampleStream/droppedCount`` counts them. The stream ends at the end of the stream.
    /// An app sink feeds one stream or handler at a time; a new call ends the previous stream.
    public func samples(_ policy: SampleStream.BufferingPolicy = .keepNewest(2)) -> SampleStream {
        let stream = SampleStream.make(policy)
        let receiver = stream.receiver
        setHandlers(onSample: { receiver.deliver($0) }, onEndOfStream: { receiver.finish() })
        return stream
    }

    /// Calls `onSample` for every sample from now on, on the streaming thread, and `onEndOfStream`
    /// at the end of the stream and when the handlers are replaced or the sink is freed.
    ///
    /// The handlers must return quickly and must not change pipeline states; the pipeline waits for them.
    public func setHandlers(onSample: @escaping @Sendable (Sample) -> Void,
                            onEndOfStream: @escaping @Sendable () -> Void = {}) {
        var callbacks = GstAppSinkCallbacks()
        callbacks.new_sample = { sink, userData in
            guard let sample = gst_app_sink_pull_sample(sink) else { return GST_FLOW_EOS }
            CallbackBox<Handlers>.value(userData).onSample(Sample(adopting: sample))
            return GST_FLOW_OK
        }
        callbacks.eos = { _, userData in
            CallbackBox<Handlers>.value(userData).onEndOfStream()
        }
        // Replaced or freed, the handlers hear the end of their stream.
        let box = CallbackBox<Handlers>.retained((onSample, onEndOfStream), onRelease: onEndOfStream)
        gst_app_sink_set_callbacks(appSink, &callbacks, box, releaseBox)
    }

    private typealias Handlers = (onSample: @Sendable (Sample) -> Void, onEndOfStream: @Sendable () -> Void)
}
