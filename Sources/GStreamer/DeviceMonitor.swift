internal import CGStreamer

/// Finds devices such as cameras through GStreamer's device providers (V4L2, libcamera, PipeWire).
public final class DeviceMonitor: @unchecked Sendable {
    // @unchecked Sendable: the pointer never changes and GstDeviceMonitor locks itself.
    private let raw: UnsafeMutablePointer<GstDeviceMonitor>

    /// Makes a monitor for devices of the given classes, such as `Video/Source`.
    public init(classes: [String] = ["Video/Source"]) throws(GStreamerError) {
        try requireGStreamer()
        raw = gst_device_monitor_new()  // transfer full, already sunk
        for deviceClass in classes {
            gst_device_monitor_add_filter(raw, deviceClass, nil)
        }
    }

    deinit {
        gst_object_unref(raw)
    }

    /// The devices present now. An empty list means no device of those classes is attached.
    public func devices() throws(GStreamerError) -> [Device] {
        guard gst_device_monitor_start(raw) != 0 else {
            throw GStreamerError(.resource, "the device monitor could not start; no device provider is usable")
        }
        defer { gst_device_monitor_stop(raw) }
        var found: [Device] = []
        var list = gst_device_monitor_get_devices(raw)
        defer { g_list_free(list) }
        while let node = list {
            if let device = node.pointee.data {
                found.append(Device(adopting: device.assumingMemoryBound(to: GstDevice.self)))
            }
            list = node.pointee.next
        }
        return found
    }
}
