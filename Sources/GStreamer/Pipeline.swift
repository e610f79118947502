import Blocking
internal import CGStreamer

/// A top-level bin with a clock and a bus: the unit that plays.
///
/// State changes are awaited without blocking the caller's thread, and fail with the error the
/// failing element posted. Bus messages are delivered as ``Message`` values, without a GLib main loop.
///
/// A wrapper only holds a reference: whoever starts a pipeline stops it (``stop(timeout:)``)
/// before letting it go, and another wrapper of the same pipeline (from ``Element/as(_:)``) can
/// come and go while it plays. Message streams end when the pipeline itself is freed.
public final class Pipeline: Bin, @unchecked Sendable {
    // @unchecked Sendable: its own state is a Sendable dispatcher and a lane, both immutable.
    override class var requiredType: GType? { gst_pipeline_get_type() }

    private let dispatcher: BusDispatcher
    /// Runs the blocking state-change calls in order, off Swift's cooperative threads.
    private let stateLane = BlockingLane(label: "pipeline.state")

    required init(adopting raw: UnsafeMutablePointer<GstElement>) {
        dispatcher = BusDispatcher.attached(to: raw)
        super.init(adopting: raw)
    }

    /// Makes an empty pipeline.
    public convenience init(name: String? = nil) throws(GStreamerError) {
        try requireGStreamer()
        self.init(sinking: gst_pipeline_new(name))
    }

    /// Builds a pipeline from a gst-launch description, such as `videotestsrc ! jpegenc ! fakesink`.
    ///
    /// A description in the plain form camctl writes is built element by element, its pads
    /// linked directly; any other is read by gst-launch's own parser.
    public convenience init(describing description: String) throws(GStreamerError) {
        try requireGStreamer()
        if let built = PlainLaunch.build(description, into: gst_pipeline_new(nil)) {
            self.init(adopting: built)
            return
        }
        let built = try parse(description) { gst_parse_launch_full(description, nil, GST_PARSE_FLAG_FATAL_ERRORS, $0) }
        gst_object_ref_sink(built)
        if cgst_instance_is_a(built, gst_pipeline_get_type()) != 0 {
            self.init(adopting: built)
        } else {
            // A single element: put it in a pipeline of its own.
            self.init(sinking: gst_pipeline_new(nil))
            gst_bin_add(bin, built)
            gst_object_unref(built)
        }
    }
}

extension Pipeline {
    /// Makes the pipeline run on the system's monotonic clock even when an element of it (a
    /// microphone's source) offers a clock of its own, so its times compare with another
    /// pipeline's on the same clock.
    public func useSystemClock() {
        let clock = gst_system_clock_obtain()
        gst_pipeline_use_clock(upcast(raw), clock)
        gst_object_unref(clock)
    }

    /// Has the video sinks that draw into windows (those with GStreamer's video overlay, such as
    /// `ximagesink`) draw into the window `handle` (an X window's id) instead of opening their own.
    /// Set it before the pipeline starts.
    public func drawVideo(intoWindow handle: UInt) {
        dispatcher.windowHandle = handle
    }

    /// The messages posted from now on, in order.
    ///
    /// Each call returns its own stream; every stream sees every message. A stream keeps
    /// at most `limit` unread messages, dropping the oldest, and ends when the pipeline is freed.
    public func messages(bufferingNewest limit: Int = 1024) -> AsyncStream<Message> {
        dispatcher.subscribe(bufferingNewest: limit)
    }

    /// Changes the state and waits until it is reached.
    ///
    /// - Throws: The error an element posted when the change failed, or a timeout error when the
    ///   change did not complete in time (the pipeline is left as it is; set it to `.null` to give up).
    public func setState(_ target: State, timeout: Duration = .seconds(10)) async throws(GStreamerError) {
        try await changeState(to: target, waitingAtMost: timeout)
    }

    /// Starts a change of state without waiting for it to complete, for pipelines that can
    /// complete it only once fed (an ``AppSource`` must get data before the sinks can preroll).
    ///
    /// - Throws: The error an element posted when it refused the change at once.
    public func beginStateChange(to target: State) async throws(GStreamerError) {
        try await changeState(to: target, waitingAtMost: nil)
    }

    private func changeState(to target: State, waitingAtMost timeout: Duration?) async throws(GStreamerError) {
        dispatcher.beginWatch()
        // Unowned: the caller holds the pipeline while it waits, and a strong capture would let the
        // queue's thread release the last reference after the caller moved on (and after gst_deinit).
        let result = await stateLane.run { [unowned self] in
            var result = StateChangeWatch.watching { gst_element_set_state(raw, target.raw) }
            if result == GST_STATE_CHANGE_ASYNC, let timeout {
                result = gst_element_get_state(raw, nil, nil, ClockTime.timeout(timeout))
            }
            return result
        }
        switch result {
        case GST_STATE_CHANGE_SUCCESS, GST_STATE_CHANGE_NO_PREROLL:
            return
        case GST_STATE_CHANGE_ASYNC:
            guard let timeout else { return }
            throw GStreamerError(.timeout, element: name,
                "did not reach the \(target) state within \(timeout); an element is waiting for data that does not come")
        default:
            if let report = await dispatcher.firstError(waitingAtMost: .milliseconds(500)) { throw GStreamerError(report) }
            throw GStreamerError(.stateChange, element: name, "could not change to the \(target) state")
        }
    }

    /// Starts the data flow.
    public func play(timeout: Duration = .seconds(10)) async throws(GStreamerError) {
        try await setState(.playing, timeout: timeout)
    }

    /// Stops the pipeline and frees its resources (devices, windows, threads).
    public func stop(timeout: Duration = .seconds(10)) async throws(GStreamerError) {
        try await setState(.null, timeout: timeout)
    }

    /// Waits until the pipeline reaches the end of its stream.
    ///
    /// Counts an end-of-stream posted since the last state change, so calling it after
    /// ``play(timeout:)`` never misses one.
    /// - Throws: The first error posted meanwhile, or a timeout error.
    public func waitForEndOfStream(timeout: Duration = .seconds(30)) async throws(GStreamerError) {
        let stream = dispatcher.subscribe(bufferingNewest: 64)
        if let report = dispatcher.firstError { throw GStreamerError(report) }
        if dispatcher.hasReachedEndOfStream { return }
        let name = self.name
        let outcome: Result<Void, GStreamerError> = await withTaskGroup(of: Result<Void, GStreamerError>?.self) { group in
            group.addTask {
                for await message in stream {
                    switch message {
                    case .endOfStream: return .success(())
                    case .error(let report): return .failure(GStreamerError(report))
                    default: continue
                    }
                }
                return Task.isCancelled ? nil : .failure(GStreamerError(.stateChange, element: name,
                    "was freed before the end of its stream"))
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(GStreamerError(.timeout, element: name,
                    "did not reach the end of its stream within \(timeout)"))
            }
            defer { group.cancelAll() }
            for await result in group {
                if let result { return result }
            }
            return .failure(GStreamerError(.timeout, element: name, "stopped waiting for the end of its stream"))
        }
        try outcome.get()
    }
}
