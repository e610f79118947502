internal import CGStreamer

/// Takes ownership of a newly allocated C string from GLib: copies it into Swift and frees it.
func takeGLibString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

/// Copies a borrowed C string, or returns `nil` for NULL.
func borrowedString(_ pointer: UnsafePointer<gchar>?) -> String? {
    pointer.map { String(cString: $0) }
}

/// Upcasts a GLib instance pointer to a base type: GObject and GstObject put the parent first.
@inline(__always)
func upcast<From, To>(_ pointer: UnsafeMutablePointer<From>, to: To.Type = To.self) -> UnsafeMutablePointer<To> {
    UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: To.self)
}
