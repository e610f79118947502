internal import CGStreamer

extension Element {
    /// Links this element's source to `downstream`'s sink, optionally restricted to a format.
    ///
    /// Both elements must be in the same bin. Linking picks compatible pads; when no pad pair
    /// shares a format, the error says so.
    public func link(to downstream: Element, filter: Caps? = nil) throws(GStreamerError) {
        if gst_element_link_filtered(raw, downstream.raw, filter?.raw) != 0 { return }
        let reason: String
        if !hasSameParent(as: downstream) {
            reason = "they must be added to the same bin first"
        } else if let filter {
            reason = "no pads of theirs share a format within \(filter)"
        } else {
            reason = "no pads of theirs share a format; put a converter (videoconvert, videoscale) between them"
        }
        throw GStreamerError(.link, element: name, "cannot be linked to \(downstream.name): \(reason)")
    }

    /// Removes the links between this element and `downstream`.
    public func unlink(from downstream: Element) {
        gst_element_unlink(raw, downstream.raw)
    }

    /// The pad that always exists on this element under this name (`src`, `sink`).
    public func staticPad(named name: String) -> Pad? {
        gst_element_get_static_pad(raw, name).map { Pad(adopting: $0) }
    }

    /// Asks the element for a new pad from a request template, such as a tee's `src_%u`.
    ///
    /// Give it back with ``releaseRequestPad(_:)`` when the branch is removed.
    public func requestPad(_ templateName: String) throws(GStreamerError) -> Pad {
        guard let pad = gst_element_request_pad_simple(raw, templateName) else {
            throw GStreamerError(.link, element: name, "has no request pads called \"\(templateName)\"")
        }
        return Pad(adopting: pad)
    }

    /// Gives back a pad obtained from ``requestPad(_:)``.
    public func releaseRequestPad(_ pad: Pad) {
        gst_element_release_request_pad(raw, pad.raw)
    }

    /// All source and sink pads the element has now.
    public var pads: [Pad] {
        var result: [Pad] = []
        withUnsafeMutablePointer(to: &result) { collected in
            _ = gst_element_foreach_pad(raw, { _, pad, userData in
                userData!.assumingMemoryBound(to: [Pad].self).pointee.append(Pad(retaining: pad!))
                return 1
            }, collected)
        }
        return result
    }

    /// Sends an end-of-stream event into the element, as a source does when its data ends.
    public func sendEndOfStream() {
        gst_element_send_event(raw, gst_event_new_eos())
    }

    private func hasSameParent(as other: Element) -> Bool {
        let mine = gst_object_get_parent(upcast(raw))
        let theirs = gst_object_get_parent(upcast(other.raw))
        defer {
            if let mine { gst_object_unref(mine) }
            if let theirs { gst_object_unref(theirs) }
        }
        return mine != nil && mine == theirs
    }
}
