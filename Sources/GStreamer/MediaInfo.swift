internal import CGStreamer
import FoundationEssentials
import Glibc

/// What a media file holds, as GStreamer's discoverer reads it (the same as `gst-discoverer-1.0`).
public struct MediaInfo: Sendable {
    /// The size of the first video stream (or picture), if there is one.
    public let videoSize: (width: Int, height: Int)?

    /// Reads the file at `path`, waiting at most `timeout`.
    ///
    /// - Throws: A ``GStreamerError`` when the file cannot be read or is not media GStreamer knows.
    public init(path: String, timeout: Duration = .seconds(5)) throws(GStreamerError) {
        try requireGStreamer()
        let nanoseconds = GstClockTime(timeout.components.seconds) * 1_000_000_000
            + GstClockTime(timeout.components.attoseconds / 1_000_000_000)
        var error: UnsafeMutablePointer<GError>?
        func failure(_ what: String) -> GStreamerError {
            let reason = error.flatMap { borrowedString($0.pointee.message) } ?? "unknown reason"
            if let error { g_error_free(error) }
            return GStreamerError(.resource, "\(what): \(reason)")
        }
        guard let discoverer = gst_discoverer_new(nanoseconds, &error) else {
            throw failure("GStreamer's discoverer could not start")
        }
        defer { g_object_unref(discoverer) }
        let uri = URL(fileURLWithPath: path).absoluteString
        let found = gst_discoverer_discover_uri(discoverer, uri, &error)
        guard let info = found, gst_discoverer_info_get_result(info) == GST_DISCOVERER_OK else {
            if let found { g_object_unref(UnsafeMutableRawPointer(found)) }
            throw failure("\(path) could not be read as a picture or video")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        if let error { g_error_free(error) }
        let streams = gst_discoverer_info_get_video_streams(info)
        defer { gst_discoverer_stream_info_list_free(streams) }
        guard let first = streams?.pointee.data else {
            videoSize = nil
            return
        }
        let video = OpaquePointer(first)
        videoSize = (Int(gst_discoverer_video_info_get_width(video)), Int(gst_discoverer_video_info_get_height(video)))
    }
}
