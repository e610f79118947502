import CGPhoto2

/// One of a camera's settings (its configuration widgets: ISO, aperture, shutter speed, white
/// balance, image format…): its name, value and what it may be set to.
public struct GPhotoSetting: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Words of any kind.
        case text
        /// A number from `range`, in steps.
        case range
        /// On or off (`1` or `0`).
        case toggle
        /// One of `choices`.
        case choice
        /// A time, in seconds since 1970.
        case date
        /// A group of settings, or a button: nothing to set.
        case section
    }

    /// The name it is set by (`iso`, `aperture`, `shutterspeed`, `imageformat`).
    public let name: String
    /// The name the camera shows a person.
    public let label: String
    public let kind: Kind
    /// The value now, as words (`1` or `0` for a toggle).
    public let value: String
    /// The values it may take, for a choice.
    public let choices: [String]
    /// The lowest and highest value and the step, for a range.
    public let range: (minimum: Float, maximum: Float, step: Float)?
    /// Whether the camera lets it be changed.
    public let isReadOnly: Bool

    public static func == (left: GPhotoSetting, right: GPhotoSetting) -> Bool {
        (left.name, left.label, left.kind, left.value, left.choices, left.isReadOnly)
            == (right.name, right.label, right.kind, right.value, right.choices, right.isReadOnly)
            && left.range?.minimum == right.range?.minimum && left.range?.maximum == right.range?.maximum && left.range?.step == right.range?.step
    }

    /// Every setting below `window`, depth first; sections and buttons left out.
    static func all(in window: OpaquePointer, api: camctl_gphoto2) -> [GPhotoSetting] {
        var found: [GPhotoSetting] = []
        func visit(_ widget: OpaquePointer, depth: Int) {
            if let setting = GPhotoSetting(widget, api: api), setting.kind != .section { found.append(setting) }
            guard depth < 8 else { return }  // a camera's tree is two or three deep
            for index in 0..<max(0, api.widget_count_children(widget)) {
                var child: OpaquePointer?
                if api.widget_get_child(widget, index, &child) >= 0, let child { visit(child, depth: depth + 1) }
            }
        }
        visit(window, depth: 0)
        return found
    }

    /// The setting a widget is; `nil` for one that cannot be read.
    init?(_ widget: OpaquePointer, api: camctl_gphoto2) {
        var name: UnsafePointer<CChar>?, label: UnsafePointer<CChar>?
        var type = GP_WIDGET_WINDOW
        var readOnly: Int32 = 0
        guard api.widget_get_name(widget, &name) >= 0, api.widget_get_type(widget, &type) >= 0, let name else { return nil }
        _ = api.widget_get_label(widget, &label)
        _ = api.widget_get_readonly(widget, &readOnly)
        self.name = String(cString: name)
        self.label = label.map { String(cString: $0) } ?? self.name
        isReadOnly = readOnly != 0
        var choices: [String] = []
        var range: (Float, Float, Float)?
        switch type {
        case GP_WIDGET_TEXT:
            kind = .text
            value = Self.words(of: widget, api: api)
        case GP_WIDGET_RADIO, GP_WIDGET_MENU:
            kind = .choice
            value = Self.words(of: widget, api: api)
            for index in 0..<max(0, min(api.widget_count_choices(widget), 1024)) {
                var choice: UnsafePointer<CChar>?
                if api.widget_get_choice(widget, index, &choice) >= 0, let choice { choices.append(String(cString: choice)) }
            }
        case GP_WIDGET_RANGE:
            kind = .range
            var number: Float = 0, minimum: Float = 0, maximum: Float = 0, step: Float = 0
            _ = api.widget_get_value(widget, &number)
            _ = api.widget_get_range(widget, &minimum, &maximum, &step)
            range = (minimum, maximum, step)
            value = number == number.rounded() ? String(Int(number)) : String(number)
        case GP_WIDGET_TOGGLE, GP_WIDGET_DATE:
            kind = type == GP_WIDGET_TOGGLE ? .toggle : .date
            var number: Int32 = 0
            _ = api.widget_get_value(widget, &number)
            value = String(number)
        default:
            kind = .section
            value = ""
        }
        (self.choices, self.range) = (choices, range)
    }

    /// A text or choice widget's words.
    private static func words(of widget: OpaquePointer, api: camctl_gphoto2) -> String {
        var text: UnsafePointer<CChar>?
        guard api.widget_get_value(widget, &text) >= 0, let text else { return "" }
        return String(cString: text)
    }

    /// Gives `widget` (this setting's) the value `text`, checked against what the setting takes.
    func assign(_ text: String, to widget: OpaquePointer, api: camctl_gphoto2, doing: String) throws(GPhotoError) {
        func refuse(_ reason: String) -> GPhotoError { GPhotoError(code: GP_ERROR_BAD_PARAMETERS, "\(doing): \(reason)") }
        guard !isReadOnly else { throw refuse("the camera does not let it be changed") }
        let result: Int32
        switch kind {
        case .text:
            result = text.withCString { api.widget_set_value(widget, $0) }
        case .choice:
            guard choices.contains(text) else {
                throw refuse("\"\(text)\" is not one of its values: " + choices.prefix(40).joined(separator: ", ") + (choices.count > 40 ? ", …" : ""))
            }
            result = text.withCString { api.widget_set_value(widget, $0) }
        case .range:
            guard var number = Float(text), let range, number >= range.minimum, number <= range.maximum else {
                throw refuse("it takes a number from \(range?.minimum ?? 0) to \(range?.maximum ?? 0)")
            }
            result = api.widget_set_value(widget, &number)
        case .toggle:
            guard var number = ["1": Int32(1), "on": 1, "true": 1, "0": 0, "off": 0, "false": 0][text.lowercased()] else {
                throw refuse("it takes on or off")
            }
            result = api.widget_set_value(widget, &number)
        case .date:
            guard var number = Int32(text) else { throw refuse("it takes a time in seconds since 1970") }
            result = api.widget_set_value(widget, &number)
        case .section:
            throw refuse("it is a group of settings, not one")
        }
        try GPhotoLibrary.check(result, doing)
    }
}
