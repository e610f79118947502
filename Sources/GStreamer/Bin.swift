internal import CGStreamer

/// A container of elements that changes state as one.
public class Bin: Element, @unchecked Sendable {
    // @unchecked Sendable: adds no state to Element's; GstBin locks its children itself.
    override class var requiredType: GType? { gst_bin_get_type() }

    var bin: UnsafeMutablePointer<GstBin> { upcast(raw) }

    /// Makes an empty bin.
    public convenience init(name: String? = nil) throws(GStreamerError) {
        try requireGStreamer()
        self.init(sinking: gst_bin_new(name))
    }

    /// Builds a bin from a gst-launch fragment, such as `videotestsrc ! videoconvert name=out`.
    ///
    /// Give the bin pads of its own with ``exposePad(_:as:)``, so it links like one element. (Unlinked
    /// pads are not exposed automatically: a pad a decoder links only once data flows looks unlinked.)
    public convenience init(fragment description: String) throws(GStreamerError) {
        try requireGStreamer()
        if let built = PlainLaunch.build(description, into: gst_bin_new(nil)) {
            self.init(adopting: built)
            return
        }
        let built = try parse(description) { gst_parse_bin_from_description_full(description, 0, nil, GST_PARSE_FLAG_FATAL_ERRORS, $0) }
        self.init(sinking: built)
    }

    /// Gives the bin a pad of its own (a ghost pad) that stands for a pad of an element inside it.
    public func exposePad(_ target: Pad, as name: String) throws(GStreamerError) {
        guard let ghost = gst_ghost_pad_new(name, target.raw), gst_element_add_pad(raw, ghost) != 0 else {
            throw GStreamerError(.link, element: self.name, "cannot expose \(target) as its pad \"\(name)\"")
        }
    }

    /// Adds elements to the bin. An element can be in one bin only, and names must be unique.
    public func add(_ elements: Element...) throws(GStreamerError) {
        try add(elements)
    }

    /// Adds elements to the bin. An element can be in one bin only, and names must be unique.
    public func add(_ elements: [Element]) throws(GStreamerError) {
        for element in elements where gst_bin_add(bin, element.raw) == 0 {
            throw GStreamerError(.link, element: element.name,
                                 "cannot be added to \(name): it is already in a bin, or \(name) has an element of that name")
        }
    }

    /// Removes an element from the bin; set it to the null state first if it was running.
    public func remove(_ element: Element) throws(GStreamerError) {
        guard gst_bin_remove(bin, element.raw) != 0 else {
            throw GStreamerError(.link, element: element.name, "is not in \(name), so it cannot be removed from it")
        }
    }

    /// Adds elements and links each to the next, as `a ! b ! c` does in gst-launch.
    public func addLinked(_ elements: [Element]) throws(GStreamerError) {
        try add(elements)
        for (upstream, downstream) in zip(elements, elements.dropFirst()) {
            try upstream.link(to: downstream)
        }
    }

    /// The element of this name, searched recursively through nested bins.
    public func element(named name: String) -> Element? {
        gst_bin_get_by_name(bin, name).map { Element.wrapping(adopting: $0) }
    }

    /// The element of this name as a specific class (``AppSink``, ``AppSource``, …).
    public func element<T: Element>(named name: String, as type: T.Type) -> T? {
        element(named: name)?.as(type)
    }

    /// The elements directly inside this bin, in no particular order.
    public var elements: [Element] {
        var result: [Element] = []
        let iterator = gst_bin_iterate_elements(bin)!
        defer { gst_iterator_free(iterator) }
        var item = GValue()
        var done = false
        while !done {
            switch gst_iterator_next(iterator, &item) {
            case GST_ITERATOR_OK:
                if let object = g_value_get_object(&item) {
                    result.append(Element.wrapping(retaining: object.assumingMemoryBound(to: GstElement.self)))
                }
                g_value_reset(&item)
            case GST_ITERATOR_RESYNC:
                result.removeAll()
                gst_iterator_resync(iterator)
            default:
                done = true
            }
        }
        if cgst_value_type(&item) != 0 { g_value_unset(&item) }
        return result
    }
}
