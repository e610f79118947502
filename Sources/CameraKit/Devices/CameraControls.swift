internal import CV4L2
import Formatting
import FoundationEssentials
import Glibc
import Synchronization

/// The controls a V4L2 camera offers through its device node (brightness, exposure, focus,
/// flash, …), read and set with the kernel's control ioctls while the camera streams.
public final class CameraControls {
    /// One control, as the driver describes it.
    public struct Control: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            case integer, boolean, menu, button, integerMenu, other
        }

        /// The V4L2 control id.
        public let id: UInt32
        /// The driver's name for it (`Brightness`, `LED Mode`).
        public let name: String
        public let kind: Kind
        public let minimum: Int
        public let maximum: Int
        public let step: Int
        public let defaultValue: Int
        /// A menu control's entries by value.
        public let menu: [Int: String]
        /// Whether it can be set now.
        public let isWritable: Bool

        /// The name as a key, as v4l2-ctl writes it: `Exposure Time, Absolute` is `exposure_time_absolute`.
        public var key: String { Self.key(for: name) }

        static func key(for name: String) -> String {
            name.lowercased().split { !($0.isLetter || $0.isNumber) }.joined(separator: "_")
        }
    }

    /// The device node.
    public let path: String
    private let descriptor: Int32

    /// Opens the device node for its controls (not for frames: a streaming camera allows it).
    ///
    /// - Throws: A ``CaptureError`` when the node cannot be opened.
    public init(path: String) throws(CaptureError) {
        self.path = path
        descriptor = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CaptureError(errno == EACCES ? .permissionDenied : .deviceNotFound, "\(path) could not be opened for its controls: \(reason)")
        }
    }

    deinit {
        close(descriptor)
    }

    /// Every control the driver lists; none for a node that is not a V4L2 device.
    public func controls() -> [Control] {
        var found: [Control] = []
        var query = v4l2_queryctrl()
        query.id = cv4l2_flag_next_control()
        while cv4l2_query_control(descriptor, &query) == 0 {
            if query.flags & cv4l2_flag_disabled() == 0 {
                found.append(control(from: query))
            }
            query.id |= cv4l2_flag_next_control()
        }
        return found
    }

    /// The control with an id, if the camera has it.
    public func control(_ id: UInt32) -> Control? {
        var query = v4l2_queryctrl()
        query.id = id
        guard cv4l2_query_control(descriptor, &query) == 0, query.flags & cv4l2_flag_disabled() == 0 else { return nil }
        return control(from: query)
    }

    /// A control's current value.
    public func value(of id: UInt32) throws(CaptureError) -> Int {
        var control = v4l2_control(id: id, value: 0)
        guard cv4l2_get_control(descriptor, &control) == 0 else { throw failure("read", id) }
        return Int(control.value)
    }

    /// Sets a control (a button control is pressed by any value).
    public func setValue(_ value: Int, of id: UInt32) throws(CaptureError) {
        var control = v4l2_control(id: id, value: Int32(clamping: value))
        guard cv4l2_set_control(descriptor, &control) == 0 else { throw failure("set", id) }
    }

    /// Sets the control with a key (``Control/key``), such as `exposure_time_absolute`,
    /// `white_balance_temperature` or `focus_absolute`, checking the value against its range.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` naming the camera's controls when it has no
    ///   such control, or the range when the value is outside it.
    public func setValue(_ value: Int, of key: String) throws(CaptureError) {
        let all = controls()
        guard let control = all.first(where: { $0.key == Control.key(for: key) }) else {
            let keys = all.map(\.key)
            throw CaptureError(.invalidSetting, "the camera at \(path) has no control \(key); "
                + (keys.isEmpty ? "it has none" : "it has " + keys.joined(separator: ", ")))
        }
        guard control.isWritable else { throw CaptureError(.invalidSetting, "the control \(control.key) of \(path) is read-only") }
        guard control.kind == .button || (control.minimum...control.maximum).contains(value) else {
            throw CaptureError(.invalidSetting, "\(value) is out of range for \(control.key); use \(control.minimum) to \(control.maximum)")
        }
        try setValue(value, of: control.id)
    }

    private func failure(_ action: String, _ id: UInt32) -> CaptureError {
        let reason = String(cString: strerror(errno))
        let name = control(id)?.name ?? String(printf: "0x%08x", id)
        return CaptureError(.invalidSetting, "the control \(name) of \(path) could not be \(action): \(reason)")
    }

    private func control(from query: v4l2_queryctrl) -> Control {
        let name = withUnsafeBytes(of: query.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let kind: Control.Kind = switch query.type {
        case V4L2_CTRL_TYPE_INTEGER.rawValue: .integer
        case V4L2_CTRL_TYPE_BOOLEAN.rawValue: .boolean
        case V4L2_CTRL_TYPE_MENU.rawValue: .menu
        case V4L2_CTRL_TYPE_BUTTON.rawValue: .button
        case V4L2_CTRL_TYPE_INTEGER_MENU.rawValue: .integerMenu
        default: .other
        }
        var menu: [Int: String] = [:]
        if kind == .menu, query.minimum <= query.maximum {
            for index in query.minimum...query.maximum {
                var item = v4l2_querymenu()
                item.id = query.id
                item.index = UInt32(index)
                if cv4l2_query_menu(descriptor, &item) == 0 {
                    menu[Int(index)] = withUnsafeBytes(of: item.name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                }
            }
        }
        return Control(id: query.id, name: name, kind: kind, minimum: Int(query.minimum), maximum: Int(query.maximum),
                       step: Int(query.step), defaultValue: Int(query.default_value), menu: menu,
                       isWritable: query.flags & cv4l2_flag_read_only() == 0)
    }
}

/// A camera's flash, through the V4L2 flash controls (LED mode and strobe), where the driver has them.
final class Flash: Sendable {
    private let controls: Mutex<CameraControls>
    private let hasStrobe: Bool

    /// The flash of the camera at `path`, or `nil` when its driver offers no flash LED mode.
    init?(devicePath path: String) {
        guard let controls = try? CameraControls(path: path),
              let mode = controls.control(cv4l2_cid_flash_led_mode()),
              mode.menu[Int(cv4l2_flash_led_mode_flash())] != nil || mode.maximum >= Int(cv4l2_flash_led_mode_flash())
        else { return nil }
        hasStrobe = controls.control(cv4l2_cid_flash_strobe()) != nil
        self.controls = Mutex(controls)
    }

    /// Turns the LED to flash mode and strobes it.
    func fire() throws(CaptureError) {
        try controls.withLock { controls throws(CaptureError) in
            try controls.setValue(Int(cv4l2_flash_led_mode_flash()), of: cv4l2_cid_flash_led_mode())
            if hasStrobe { try controls.setValue(1, of: cv4l2_cid_flash_strobe()) }
        }
    }

    /// Turns the LED off again.
    func reset() {
        controls.withLock { controls in
            if hasStrobe { try? controls.setValue(1, of: cv4l2_cid_flash_strobe_stop()) }
            try? controls.setValue(Int(cv4l2_flash_led_mode_none()), of: cv4l2_cid_flash_led_mode())
        }
    }
}
