internal import CGStreamer

/// Runs one of GStreamer's gst-launch parsers and returns the floating element it built.
///
/// A parse can return a half-built result *and* an error; the error decides, and the half-built
/// result is freed.
func parse(
    _ description: String,
    with parser: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> UnsafeMutablePointer<GstElement>?
) throws(GStreamerError) -> UnsafeMutablePointer<GstElement> {
    try requireGStreamer()
    var error: UnsafeMutablePointer<GError>?
    let built = parser(&error)
    if let error {
        defer { g_error_free(error) }
        if let built { gst_object_unref(gst_object_ref_sink(built)) }
        throw GStreamerError(parsing: error.pointee, in: description)
    }
    guard let built else {
        throw GStreamerError(.parse, "the description \"\(description)\" produced nothing")
    }
    return built
}
