internal import CGStreamer
import Synchronization

/// Finds devices such as cameras through GStreamer's device providers (V4L2, libcamera, PipeWire).
public final class DeviceMonitor: @unchecked Sendable {
    // @unchecked Sendable: its reference and dispatcher are Sendable, GstDeviceMonitor locks
    // itself, and the watching flag is behind a mutex.
    private let reference: ObjectReference<GstDeviceMonitor>
    private var raw: UnsafeMutablePointer<GstDeviceMonitor> { reference.raw }

    /// Makes a monitor for devices of the given classes, such as `Video/Source`.
    public init(classes: [String] = ["Video/Source"]) throws(GStreamerError) {
        try requireGStreamer()
        reference = ObjectReference(adopting: gst_device_monitor_new())  // transfer full, already sunk
        let bus = gst_device_monitor_get_bus(reference.raw)!
        dispatcher = BusDispatcher.install(on: bus)
        gst_object_unref(bus)
        for deviceClass in classes {
            gst_device_monitor_add_filter(reference.raw, deviceClass, nil)
        }
    }

    /// Delivers the monitor's bus messages while it watches.
    private let dispatcher: BusDispatcher
    private let watching = Mutex(false)

    deinit {
        stopWatching()
        dispatcher.finishAll()
    }

    /// A device that appeared or went.
    public enum Change: Sendable {
        /// A device was plugged in (or a provider found it).
        case added(Device)
        /// A device was unplugged.
        case removed(Device)
    }

    /// Cameras appearing and disappearing from now on (hot-plug), until ``stopWatching()`` or the
    /// monitor is freed. Each call returns a stream of its own.
    public func changes() throws(GStreamerError) -> AsyncCompactMapSequence<AsyncStream<Message>, Change> {
        let messages = dispatcher.subscribe(bufferingNewest: 64)
        let started = watching.withLock { watching in
            if !watching { watching = gst_device_monitor_start(raw) != 0 }
            return watching
        }
        guard started else {
            throw GStreamerError(.resource, "the device monitor could not start; no device provider is usable")
        }
        return messages.compactMap { message in
            switch message {
            case .deviceAdded(let device): .added(device)
            case .deviceRemoved(let device): .removed(device)
            default: nil
            }
        }
    }

    /// Stops watching for changes; the change streams stay open until the monitor is freed.
    public func stopWatching() {
        watching.withLock { watching in
            if watching { gst_device_monitor_stop(raw) }
            watching = false
        }
    }

    /// The devices present now. An empty list means no device of those classes is attached.
    public func devices() throws(GStreamerError) -> [Device] {
        let alreadyWatching = watching.withLock { $0 }
        if !alreadyWatching {
            guard gst_device_monitor_start(raw) != 0 else {
                throw GStreamerError(.resource, "the device monitor could not start; no device provider is usable")
            }
        }
        defer { if !alreadyWatching { gst_device_monitor_stop(raw) } }
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
