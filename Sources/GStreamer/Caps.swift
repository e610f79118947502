internal import CGStreamer

/// Media capabilities: the formats a pad can take or a stream carries
/// (`video/x-raw, format=I420, width=1920, height=1080, framerate=30/1`).
///
/// Caps are immutable values; every operation returns new caps.
public struct Caps: Equatable, Sendable, CustomStringConvertible {
    /// The caps are never written after creation.
    private let storage: MiniObjectReference

    var raw: UnsafeMutablePointer<GstCaps> { storage.pointer(to: GstCaps.self) }

    /// Takes over a reference the caller owned.
    init(adopting raw: UnsafeMutablePointer<GstCaps>) {
        storage = MiniObjectReference(adopting: raw)
    }

    /// Takes a new reference to caps someone else owns.
    init(retaining raw: UnsafeMutablePointer<GstCaps>) {
        storage = MiniObjectReference(retaining: raw)
    }

    /// Parses GStreamer's text form, as written after `!` in gst-launch.
    public init(_ text: String) throws(GStreamerError) {
        try requireGStreamer()
        guard let raw = gst_caps_from_string(text) else {
            throw GStreamerError(.invalidCaps, "\"\(text)\" is not valid caps; write them as media/type, field=value, … ; …")
        }
        self.init(adopting: raw)
    }

    /// Makes caps from structures, in order of preference.
    public init(_ structures: [Structure]) throws(GStreamerError) {
        try requireGStreamer()
        let raw = gst_caps_new_empty()!
        for structure in structures {
            do {
                gst_caps_append_structure(raw, try structure.makeGstStructure())
            } catch {
                gst_caps_unref(raw)
                throw error
            }
        }
        self.init(adopting: raw)
    }

    /// Caps that accept anything.
    public static var any: Caps {
        get throws(GStreamerError) { try requireGStreamer(); return Caps(adopting: gst_caps_new_any()) }
    }

    /// Whether these caps accept anything.
    public var isAny: Bool { gst_caps_is_any(raw) != 0 }

    /// Whether these caps accept nothing.
    public var isEmpty: Bool { gst_caps_is_empty(raw) != 0 }

    /// Whether these caps describe exactly one format, with no ranges or lists.
    public var isFixed: Bool { gst_caps_is_fixed(raw) != 0 }

    /// The structures, in order of preference.
    public var structures: [Structure] {
        (0..<gst_caps_get_size(raw)).map { Structure(reading: gst_caps_get_structure(raw, $0)) }
    }

    /// The formats both caps accept, in the order of preference of these caps.
    public func intersection(_ other: Caps) -> Caps {
        Caps(adopting: gst_caps_intersect(raw, other.raw))
    }

    /// Whether every format these caps accept is accepted by `other`.
    public func isSubset(of other: Caps) -> Bool {
        gst_caps_is_subset(raw, other.raw) != 0
    }

    /// Whether some format is accepted by both.
    public func canIntersect(_ other: Caps) -> Bool {
        gst_caps_can_intersect(raw, other.raw) != 0
    }

    /// One fixed format chosen from these caps, as GStreamer's default fixation does: the first
    /// structure, the first choice of each list, the lowest value of each range.
    public func fixated() -> Caps {
        Caps(adopting: gst_caps_fixate(gst_caps_copy(raw)))
    }

    public static func == (lhs: Caps, rhs: Caps) -> Bool {
        gst_caps_is_equal(lhs.raw, rhs.raw) != 0
    }

    /// GStreamer's text form, which ``init(_:)-(String)`` reads back.
    public var description: String {
        takeGLibString(gst_caps_to_string(raw)) ?? ""
    }
}
