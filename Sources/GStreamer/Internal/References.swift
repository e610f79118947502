internal import CGStreamer

/// Owns one reference to a GStreamer object (an element, a pad, a device, a device monitor) and
/// releases it when freed. Every wrapper of a `GstObject` holds its object through one of these,
/// so each wrapper's release is this one line and nothing else.
final class ObjectReference<Object>: @unchecked Sendable {
    // @unchecked Sendable: the pointer never changes, a GstObject's reference count is atomic,
    // and GStreamer locks the object for the calls made through it.
    let raw: UnsafeMutablePointer<Object>

    /// Takes over one reference the caller owned (transfer full, already sunk).
    init(adopting raw: UnsafeMutablePointer<Object>) {
        self.raw = raw
    }

    /// Takes a new reference to an object someone else owns.
    init(retaining raw: UnsafeMutablePointer<Object>) {
        gst_object_ref(raw)
        self.raw = raw
    }

    deinit {
        gst_object_unref(raw)
    }
}

/// Owns one reference to a GStreamer mini object (a buffer, a sample, caps, a tag list) and
/// releases it when freed. Every wrapper of a `GstMiniObject` holds its object through one of these.
final class MiniObjectReference: @unchecked Sendable {
    // @unchecked Sendable: the pointer never changes, a mini object's reference count is atomic,
    // and the wrappers write a mini object only while they hold its one reference.
    private let object: UnsafeMutablePointer<GstMiniObject>

    /// Takes over one reference the caller owned.
    init(adopting raw: OpaquePointer) {
        object = UnsafeMutablePointer(raw)
    }

    /// Takes over one reference the caller owned.
    convenience init<Object>(adopting raw: UnsafeMutablePointer<Object>) {
        self.init(adopting: OpaquePointer(raw))
    }

    /// Takes a new reference to a mini object someone else owns.
    convenience init<Object>(retaining raw: UnsafeMutablePointer<Object>) {
        self.init(adopting: OpaquePointer(gst_mini_object_ref(UnsafeMutablePointer<GstMiniObject>(OpaquePointer(raw)))))
    }

    /// The object as its own type.
    func pointer<Object>(to type: Object.Type) -> UnsafeMutablePointer<Object> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: Object.self)
    }

    /// The object, for types C declares opaque (`GstSample`).
    var opaque: OpaquePointer { OpaquePointer(object) }

    deinit {
        gst_mini_object_unref(object)
    }
}
