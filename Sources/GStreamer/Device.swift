internal import CGStreamer

/// A device GStreamer's device monitor found: a camera, with its formats and system properties.
public struct Device: Sendable, CustomStringConvertible {
    /// The name to show a person, such as `HD Pro Webcam C920`.
    public let displayName: String
    /// The class, such as `Video/Source`.
    public let deviceClass: String
    /// The formats the device offers.
    public let caps: Caps?
    /// System properties: `device.path`, `device.api`, `v4l2.device.driver`, `api.v4l2.path`, …
    public let properties: Structure?

    private let handle: ObjectReference<GstDevice>

    /// Takes over a reference the caller owned.
    init(adopting raw: UnsafeMutablePointer<GstDevice>) {
        handle = ObjectReference(adopting: raw)
        displayName = takeGLibString(gst_device_get_display_name(raw)) ?? "unnamed device"
        deviceClass = takeGLibString(gst_device_get_device_class(raw)) ?? ""
        caps = gst_device_get_caps(raw).map { Caps(adopting: $0) }
        properties = gst_device_get_properties(raw).map { structure in
            defer { gst_structure_free(structure) }
            return Structure(reading: structure)
        }
    }

    /// The device node or object path (`/dev/video0`), from whichever property the provider sets.
    public var path: String? {
        for key in ["device.path", "api.v4l2.path", "object.path"] {
            if let path = properties?[key]?.stringValue { return path }
        }
        return nil
    }

    /// The API the device is reached through (`v4l2`, `libcamera`, `pipewire`).
    public var api: String? {
        properties?["device.api"]?.stringValue
    }

    /// The formats, sizes and frame rates the device offers.
    public var capabilities: [VideoCapability] {
        caps.map(VideoCapability.list(from:)) ?? []
    }

    /// Makes the source element that reads from this device (`v4l2src device=…`, `pipewiresrc`, …).
    public func makeElement(name: String? = nil) throws(GStreamerError) -> Element {
        guard let raw = gst_device_create_element(handle.raw, name) else {
            throw GStreamerError(.missingElement, element: name,
                                 "no element could be made for the device \(displayName)")
        }
        return Element(sinking: raw)
    }

    /// The source element that reads from this device in gst-launch syntax, as the device's
    /// provider configures it: `v4l2src device=/dev/video0`, `pipewiresrc target-object=42`,
    /// `libcamerasrc camera-name=…`; `nil` when the provider makes no element.
    public var sourceDescription: String? {
        (try? makeElement())?.launchDescription
    }

    /// `name (path)`.
    public var description: String {
        path.map { "\(displayName) (\($0))" } ?? displayName
    }
}
