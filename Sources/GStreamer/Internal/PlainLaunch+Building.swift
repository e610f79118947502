internal import CGStreamer
import Glibc

// Building a plain description element by element. gst_parse links every pair with
// gst_element_link_pads_filtered, which queries the caps of both sides, recursively along
// everything already linked: for a chain of video converters, most of a session's start-up.
// Where the pads to link are plain (one always-present pad of each side, or a tee's requested
// one) they are linked directly, checked against their templates only; the caps are agreed
// once data flows, as they are after gst_parse's links too.

extension PlainLaunch {
    /// `description` built into `container` (a new, floating pipeline or bin): a reference the
    /// caller owns, or `nil` when the description is not plain or cannot be built as written
    /// (gst_parse then reads it, and says what is wrong).
    static func build(_ description: String,
                      into container: @autoclosure () -> UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement>? {
        guard let plain = PlainLaunch(description) else { return nil }
        let bin = gst_object_ref_sink(container()).assumingMemoryBound(to: GstElement.self)
        guard plain.build(into: upcast(bin)) else {
            gst_object_unref(bin)
            return nil
        }
        return bin
    }

    /// Makes the elements in `bin` (empty, not yet playing) and links them. `false` when an
    /// element, a setting or a link cannot be made as written: the caller then discards the bin
    /// and leaves the description to gst_parse, which says what is wrong.
    func build(into bin: UnsafeMutablePointer<GstBin>) -> Bool {
        var made: [UnsafeMutablePointer<GstElement>] = []
        for element in elements {
            guard let raw = Self.make(element) else { return false }
            gst_object_ref_sink(raw)
            defer { gst_object_unref(raw) }
            // A pipeline in the text would be the result itself, as gst_parse returns it.
            guard cgst_instance_is_a(raw, gst_pipeline_get_type()) == 0, gst_bin_add(bin, raw) != 0 else { return false }
            made.append(raw)
        }
        for link in links {
            guard Self.link(made[link.from], to: made[link.to], caps: link.caps, in: bin) else { return false }
        }
        return true
    }

    /// Makes an element with its settings, as gst_parse does; floating, or `nil`.
    private static func make(_ element: Element) -> UnsafeMutablePointer<GstElement>? {
        let names = element.properties.map { UnsafePointer(strdup($0.name)) }, texts = element.properties.map { UnsafePointer(strdup($0.value)) }
        defer { (names + texts).forEach { free(UnsafeMutableRawPointer(mutating: $0)) } }
        var namePointers = names, textPointers = texts
        return namePointers.withUnsafeMutableBufferPointer { names in
            textPointers.withUnsafeMutableBufferPointer { texts in
                cgst_make_element(element.factory, guint(element.properties.count), names.baseAddress, texts.baseAddress)
            }
        }
    }

    /// Links two elements of `bin`, through a caps filter when `caps` are given.
    private static func link(_ source: UnsafeMutablePointer<GstElement>, to sink: UnsafeMutablePointer<GstElement>,
                             caps: String?, in bin: UnsafeMutablePointer<GstBin>) -> Bool {
        guard let caps else { return link(source, to: sink) }
        guard let filter = make(Element(factory: "capsfilter", properties: [Property(name: "caps", value: caps)])) else { return false }
        guard gst_bin_add(bin, filter) != 0 else {
            gst_object_unref(gst_object_ref_sink(filter))
            return false
        }
        return link(source, to: filter) && link(filter, to: sink)
    }

    /// Links two elements pad to pad when their pads are plain, else as gst_parse does.
    private static func link(_ source: UnsafeMutablePointer<GstElement>, to sink: UnsafeMutablePointer<GstElement>) -> Bool {
        guard let output = plainPad(of: source, GST_PAD_SRC) else {
            return gst_element_link_pads_full(source, nil, sink, nil, GST_PAD_LINK_CHECK_DEFAULT) != 0
        }
        defer { gst_object_unref(output.pad) }
        guard let input = plainPad(of: sink, GST_PAD_SINK) else {
            if output.requested { gst_element_release_request_pad(source, output.pad) }
            return gst_element_link_pads_full(source, nil, sink, nil, GST_PAD_LINK_CHECK_DEFAULT) != 0
        }
        defer { gst_object_unref(input.pad) }
        let checks = GstPadLinkCheck(rawValue: GST_PAD_LINK_CHECK_HIERARCHY.rawValue | GST_PAD_LINK_CHECK_TEMPLATE_CAPS.rawValue)
        guard gst_pad_link_full(output.pad, input.pad, checks) == GST_PAD_LINK_OK else {
            if output.requested { gst_element_release_request_pad(source, output.pad) }
            if input.requested { gst_element_release_request_pad(sink, input.pad) }
            return false
        }
        return true
    }

    /// The pad a link of `element` in `direction` takes when that is plain: the element has one
    /// pad template in that direction, and its pad is always there and not yet linked, or is
    /// made on request (a new one, as a tee gives each branch). A reference the caller releases.
    private static func plainPad(of element: UnsafeMutablePointer<GstElement>,
                                 _ direction: GstPadDirection) -> (pad: UnsafeMutablePointer<GstPad>, requested: Bool)? {
        var template: UnsafeMutablePointer<GstPadTemplate>?
        var node = cgst_element_pad_templates(element)
        while let current = node {
            if let candidate = current.pointee.data?.assumingMemoryBound(to: GstPadTemplate.self), candidate.pointee.direction == direction {
                guard template == nil else { return nil }
                template = candidate
            }
            node = current.pointee.next
        }
        guard let template, let name = template.pointee.name_template else { return nil }
        switch template.pointee.presence {
        case GST_PAD_ALWAYS:
            guard let pad = gst_element_get_static_pad(element, name) else { return nil }
            guard gst_pad_is_linked(pad) == 0 else {
                gst_object_unref(pad)
                return nil
            }
            return (pad, false)
        case GST_PAD_REQUEST:
            return gst_element_request_pad_simple(element, name).map { ($0, true) }
        default:
            return nil
        }
    }
}
