internal import CGStreamer

/// A connection point of an element: data leaves through source pads and enters through sink pads.
public final class Pad: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: its only state is its reference, which is Sendable, and GStreamer locks pads internally.
    private let reference: ObjectReference<GstPad>
    var raw: UnsafeMutablePointer<GstPad> { reference.raw }

    /// The way data flows through a pad.
    public enum Direction: Sendable {
        /// Data leaves the element here.
        case source
        /// Data enters the element here.
        case sink
        /// Not known.
        case unknown
    }

    /// Takes over a reference the caller owned.
    init(adopting raw: UnsafeMutablePointer<GstPad>) {
        reference = ObjectReference(adopting: raw)
    }

    /// Takes a new reference to a pad someone else owns.
    init(retaining raw: UnsafeMutablePointer<GstPad>) {
        reference = ObjectReference(retaining: raw)
    }

    /// The pad's name, such as `src` or `src_0`.
    public var name: String {
        takeGLibString(gst_object_get_name(upcast(raw))) ?? ""
    }

    /// Whether data leaves or enters the element here.
    public var direction: Direction {
        switch gst_pad_get_direction(raw) {
        case GST_PAD_SRC: .source
        case GST_PAD_SINK: .sink
        default: .unknown
        }
    }

    /// The name of the element the pad belongs to.
    public var elementName: String? {
        guard let parent = gst_pad_get_parent_element(raw) else { return nil }
        defer { gst_object_unref(parent) }
        return takeGLibString(gst_object_get_name(upcast(parent)))
    }

    /// The format agreed for the data flowing through the pad, once negotiated.
    public var currentCaps: Caps? {
        gst_pad_get_current_caps(raw).map { Caps(adopting: $0) }
    }

    /// The formats the pad could take now, given its element and peers.
    public var possibleCaps: Caps {
        Caps(adopting: gst_pad_query_caps(raw, nil))
    }

    /// Whether the pad is linked to a peer.
    public var isLinked: Bool { gst_pad_is_linked(raw) != 0 }

    /// The pad this one is linked to.
    public var peer: Pad? {
        gst_pad_get_peer(raw).map { Pad(adopting: $0) }
    }

    /// Links this source pad to a sink pad.
    public func link(to sink: Pad) throws(GStreamerError) {
        let result = gst_pad_link(raw, sink.raw)
        let reason: String
        switch result {
        case GST_PAD_LINK_OK: return
        case GST_PAD_LINK_WRONG_HIERARCHY: reason = "their elements are not in the same bin"
        case GST_PAD_LINK_WAS_LINKED: reason = "one of them is already linked"
        case GST_PAD_LINK_WRONG_DIRECTION: reason = "a source pad must be linked to a sink pad"
        case GST_PAD_LINK_NOFORMAT: reason = "they share no format"
        default: reason = borrowedString(gst_pad_link_get_name(result)) ?? "GStreamer refused"
        }
        throw GStreamerError(.link, element: elementName,
                             "pad \(name) cannot be linked to \(sink.elementName ?? "?"):\(sink.name): \(reason)")
    }

    /// Removes the link to a peer.
    public func unlink(from sink: Pad) {
        gst_pad_unlink(raw, sink.raw)
    }

    /// `element:pad`.
    public var description: String { "\(elementName ?? "?"):\(name)" }
}
