import Blocking
internal import CGStreamer

/// A GStreamer element: a source, filter, encoder or sink that a pipeline links together.
///
/// The wrapper holds one reference to the element and releases it when it is no longer used.
/// Elements are safe to use from any thread: GStreamer locks each object internally.
public class Element: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: its only state is its reference, which is Sendable, and every
    // GStreamer call made through it takes the object's own lock.
    private let reference: ObjectReference<GstElement>
    var raw: UnsafeMutablePointer<GstElement> { reference.raw }

    /// Takes over one reference the caller owned (transfer full, already sunk).
    required init(adopting raw: UnsafeMutablePointer<GstElement>) {
        reference = ObjectReference(adopting: raw)
    }

    /// Takes ownership of a newly created, floating element.
    convenience init(sinking raw: UnsafeMutablePointer<GstElement>) {
        gst_object_ref_sink(raw)
        self.init(adopting: raw)
    }

    /// Makes an element from an installed factory.
    ///
    /// - Parameters:
    ///   - factory: The factory name, as `gst-inspect-1.0` lists it (`videotestsrc`, `jpegenc`).
    ///   - name: A name unique in its bin; GStreamer picks one (`videotestsrc0`) when `nil`.
    public convenience init(factory: String, name: String? = nil) throws(GStreamerError) {
        try requireGStreamer()
        guard let raw = gst_element_factory_make(factory, name) else {
            throw GStreamerError(.missingElement, element: name,
                "no GStreamer element called \"\(factory)\" is installed; check the name with gst-inspect-1.0, or install the plugin package that provides it")
        }
        guard Self.accepts(raw) else {
            gst_object_unref(gst_object_ref_sink(raw))
            throw GStreamerError(.missingElement, element: name, "\"\(factory)\" does not make a \(Self.self)")
        }
        self.init(sinking: raw)
    }

    /// The GType instances must have to be wrapped by this class; `nil` accepts any element.
    class var requiredType: GType? { nil }

    /// Wraps a borrowed element in the most fitting class, taking a new reference.
    static func wrapping(retaining raw: UnsafeMutablePointer<GstElement>) -> Element {
        gst_object_ref(raw)
        return wrapping(adopting: raw)
    }

    /// Wraps an owned element in the most fitting class (pipeline, bin, app sink, app source).
    static func wrapping(adopting raw: UnsafeMutablePointer<GstElement>) -> Element {
        for candidate in [Pipeline.self, Bin.self, AppSink.self, AppSource.self] as [Element.Type]
        where candidate.accepts(raw) {
            return candidate.init(adopting: raw)
        }
        return Element(adopting: raw)
    }

    static func accepts(_ raw: UnsafeMutablePointer<GstElement>) -> Bool {
        guard let type = requiredType else { return true }
        return cgst_instance_is_a(raw, type) != 0
    }

    /// The element's name, unique within its bin.
    public var name: String {
        takeGLibString(gst_object_get_name(upcast(raw))) ?? ""
    }

    /// The name of the factory that made this element (`videotestsrc`), if known.
    public var factoryName: String? {
        guard let factory = gst_element_get_factory(raw) else { return nil }
        return takeGLibString(gst_object_get_name(UnsafeMutablePointer<GstObject>(factory)))
    }

    /// The classification its factory gives (`Source/File`, `Sink/Network`, `Filter/Effect/Video`), if known.
    public var factoryClass: String? {
        guard let factory = gst_element_get_factory(raw), let klass = gst_element_factory_get_metadata(factory, "klass") else { return nil }
        return String(cString: klass)
    }

    /// The element's current state, without waiting for a pending change.
    public var currentState: State {
        var current = GST_STATE_VOID_PENDING
        gst_element_get_state(raw, &current, nil, 0)
        return State(current)
    }

    /// The time the element has been playing, on its pipeline's clock: the timeline that
    /// live sources stamp their buffers with. `nil` before the element has a clock.
    public var runningTime: ClockTime? {
        guard let clock = gst_element_get_clock(raw) else { return nil }
        defer { gst_object_unref(clock) }
        let now = gst_clock_get_time(clock), base = gst_element_get_base_time(raw)
        guard now != GstClockTime.max, now >= base else { return nil }
        return ClockTime(rawValue: UInt64(now - base))
    }

    /// Brings the element to the state of the bin it is in, after adding it to a running pipeline.
    public func syncStateWithParent() throws(GStreamerError) {
        guard gst_element_sync_state_with_parent(raw) != 0 else {
            throw GStreamerError(.stateChange, element: name, "could not follow the state of its pipeline")
        }
    }

    /// Sets the state of this element alone, without waiting for an asynchronous change to complete.
    ///
    /// For elements added to or removed from a running pipeline (a camera swapped while running);
    /// the blocking call runs off Swift's cooperative threads. Pipelines have
    /// ``Pipeline/setState(_:timeout:)``, which waits and reports bus errors.
    public func changeState(to state: State) async throws(GStreamerError) {
        let refused = await BlockingLane(label: "element.state").run { [unowned self] in
            StateChangeWatch.watching { gst_element_set_state(raw, state.raw) } == GST_STATE_CHANGE_FAILURE
        }
        if refused {
            throw GStreamerError(.stateChange, element: name, "refused to change to the \(state) state")
        }
    }

    /// This element as a more specific class (``AppSink``, ``Bin``, …), or `nil` if it is not one.
    public func `as`<T: Element>(_ type: T.Type) -> T? {
        if let match = self as? T { return match }
        guard type.accepts(raw) else { return nil }
        gst_object_ref(raw)
        return type.init(adopting: raw)
    }

    /// The element's name and factory: `src (videotestsrc)`.
    public var description: String {
        guard let factoryName else { return name }
        return "\(name) (\(factoryName))"
    }
}

extension Element: Equatable {
    /// Two wrappers are equal when they wrap the same GStreamer element.
    public static func == (lhs: Element, rhs: Element) -> Bool { lhs.raw == rhs.raw }
}
