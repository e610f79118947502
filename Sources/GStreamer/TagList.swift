internal import CGStreamer
import FoundationEssentials
import Glibc

/// Metadata about a stream or picture (camera make and model, capture time, orientation),
/// which muxers such as `jifmux` write as EXIF.
public struct TagList: Sendable, CustomStringConvertible {
    /// Written only while uniquely referenced (copy on write).
    private var storage: MiniObjectReference

    /// Well-known tag names.
    public enum Tag {
        /// The capture time (`DateTimeOriginal`).
        public static let dateTime = GST_TAG_DATE_TIME
        /// The camera maker (`Make`).
        public static let deviceManufacturer = GST_TAG_DEVICE_MANUFACTURER
        /// The camera model (`Model`).
        public static let deviceModel = GST_TAG_DEVICE_MODEL
        /// How to turn the picture to show it: `rotate-0`, `rotate-90`, `flip-rotate-0`, …
        public static let imageOrientation = GST_TAG_IMAGE_ORIENTATION
        /// The program that made the file (`Software`).
        public static let applicationName = GST_TAG_APPLICATION_NAME
        /// Whether the flash fired.
        public static let flashFired = GST_TAG_CAPTURING_FLASH_FIRED
        /// The digital zoom ratio.
        public static let digitalZoomRatio = GST_TAG_CAPTURING_DIGITAL_ZOOM_RATIO
        /// A free-form description.
        public static let description = GST_TAG_DESCRIPTION
    }

    /// Makes an empty tag list.
    public init() throws(GStreamerError) {
        try requireGStreamer()
        storage = MiniObjectReference(adopting: gst_tag_list_new_empty())
    }

    /// Sets a tag, converting the value to the tag's type (text, number, Boolean).
    public mutating func set(_ tag: String, _ value: Value) throws(GStreamerError) {
        let type = gst_tag_get_type(tag)
        guard type != 0 else {
            throw GStreamerError(.invalidPropertyValue, "\"\(tag)\" is not a tag GStreamer knows")
        }
        var gvalue = GValue()
        try value.initialize(&gvalue, as: type)
        defer { g_value_unset(&gvalue) }
        gst_tag_list_add_value(writableRaw, GST_TAG_MERGE_REPLACE, tag, &gvalue)
    }

    /// Sets a date-and-time tag, in the local time zone as EXIF expects.
    public mutating func set(_ tag: String, _ date: Date) throws(GStreamerError) {
        guard gst_tag_get_type(tag) == gst_date_time_get_type() else {
            throw GStreamerError(.invalidPropertyValue, "\"\(tag)\" is not a date-and-time tag")
        }
        let microseconds = gint64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let dateTime = gst_date_time_new_from_unix_epoch_local_time_usecs(microseconds)
        defer { gst_date_time_unref(dateTime) }
        var gvalue = GValue()
        g_value_init(&gvalue, gst_date_time_get_type())
        defer { g_value_unset(&gvalue) }
        g_value_set_boxed(&gvalue, UnsafeRawPointer(dateTime))
        gst_tag_list_add_value(writableRaw, GST_TAG_MERGE_REPLACE, tag, &gvalue)
    }

    /// The value of a tag, or `nil` when it is not set.
    public subscript(tag: String) -> Value? {
        var gvalue = GValue()
        guard gst_tag_list_copy_value(&gvalue, storage.pointer(to: GstTagList.self), tag) != 0 else { return nil }
        defer { g_value_unset(&gvalue) }
        return Value(reading: &gvalue)
    }

    /// GStreamer's text form.
    public var description: String {
        takeGLibString(gst_tag_list_to_string(storage.pointer(to: GstTagList.self))) ?? ""
    }

    private var writableRaw: UnsafeMutablePointer<GstTagList> {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) {
                storage = MiniObjectReference(adopting: gst_tag_list_copy(storage.pointer(to: GstTagList.self)))
            }
            return storage.pointer(to: GstTagList.self)
        }
    }
}
