/// A booth's settings as `/api/settings` says and takes them, and as `serve --settings FILE`
/// keeps them. A request sets the fields it has and leaves the others; what the server says
/// has every field, and beside them what may be chosen.
public struct SettingsRecord: Codable, Sendable, Equatable {
    /// The seconds counted down before each shot.
    public var countdown: Double?
    /// How many shots a booth takes.
    public var shots: Int?
    /// `2x2`, `1x4`, or the file name of a template in the server's templates folder.
    public var layout: String?
    /// Filter names joined by `+`; empty for none.
    public var filter: String?
    /// The file name of a picture in the server's backgrounds folder put behind a green screen; empty for none.
    public var background: String?
    /// A strftime format each frame's time is stamped with; empty for none.
    public var stamp: String?
    /// Whether a booth's picture waits for Save or Cancel.
    public var review: Bool?
    /// Whether a booth's picture is printed once kept.
    public var print: Bool?
    /// Whether a guest can take a booth's shot again while it is shown.
    public var retake: Bool?
    /// Words written on the picture (its caption); empty for none.
    public var caption: String?
    /// The clip kept beside a booth's picture: `mp4`, `gif` or `boomerang`; empty for none.
    public var animation: String?
    /// How many copies of a booth's picture are printed.
    public var copies: Int?
    /// The shots' codec: `jpeg` or `hevc`.
    public var codec: String?
    /// The green screen's colour: `green`, `blue` or `#RRGGBB`.
    public var keyColor: String?
    /// The seconds a guest's result stays on the kiosk before it returns to the attract screen.
    public var attractAfter: Double?
    /// What may be chosen (said, never taken): the templates, backgrounds and filters there are,
    /// and whether the server has a printer.
    public var templates: [String]?
    public var backgrounds: [String]?
    public var filters: [String]?
    public var printer: Bool?
    /// Where the settings are kept (said, never taken): the settings file's path.
    public var keptIn: String?
    /// Whether a change needs the booth's PIN (said, never taken).
    public var pinRequired: Bool?

    public init(countdown: Double? = nil, shots: Int? = nil, layout: String? = nil, filter: String? = nil, background: String? = nil,
                stamp: String? = nil, review: Bool? = nil, print: Bool? = nil, retake: Bool? = nil, attractAfter: Double? = nil) {
        (self.countdown, self.shots, self.layout, self.filter) = (countdown, shots, layout, filter)
        (self.background, self.stamp, self.review, self.print) = (background, stamp, review, print)
        (self.retake, self.attractAfter) = (retake, attractAfter)
    }

    enum CodingKeys: String, CodingKey {
        case countdown, shots, layout, filter, background, stamp, review, print, retake, caption, animation, copies, codec
        case templates, backgrounds, filters, printer
        case keyColor = "key_color", attractAfter = "attract_after", keptIn = "kept_in", pinRequired = "pin_required"
    }

    /// These settings with what `change` sets.
    public func changed(by change: SettingsRecord) -> SettingsRecord {
        var settings = self
        for field in Self.settings { field.copy(change, &settings) }
        return settings
    }

    /// The settings alone, without what may be chosen: what a settings file holds.
    public var values: SettingsRecord {
        var values = SettingsRecord()
        for field in Self.settings { field.copy(self, &values) }
        return values
    }

    /// The settings proper, each named once: what a change sets and a settings file holds (not
    /// what is said beside them).
    private static let settings: [Field] = [
        Field(\.countdown), Field(\.shots), Field(\.layout), Field(\.filter), Field(\.background), Field(\.stamp), Field(\.review),
        Field(\.print), Field(\.retake), Field(\.caption), Field(\.animation), Field(\.copies), Field(\.codec), Field(\.keyColor),
        Field(\.attractAfter),
    ]

    /// One setting, copied from a record into another when the first has it.
    private struct Field: Sendable {
        let copy: @Sendable (SettingsRecord, inout SettingsRecord) -> Void

        init<Value>(_ path: WritableKeyPath<SettingsRecord, Value?> & Sendable) {
            copy = { from, to in
                if let value = from[keyPath: path] { to[keyPath: path] = value }
            }
        }
    }
}
