/// One of a DSLR's own settings as every front end says it (`camctl camera-settings --json`,
/// `GET /api/camera-settings`): its name, value, and what it may be set to.
public struct CameraSettingRecord: Codable, Sendable, Equatable {
    /// The name it is set by (`iso`, `aperture`, `shutterspeed`).
    public var name: String
    /// The name the camera shows a person.
    public var label: String
    /// `text`, `range`, `toggle`, `choice` or `date`.
    public var kind: String
    /// The value now, as words.
    public var value: String
    /// The values a choice may take.
    public var choices: [String]?
    /// A range's lowest and highest value and its step.
    public var minimum: Double?
    public var maximum: Double?
    public var step: Double?
    public var readOnly: Bool

    public init(name: String, label: String, kind: String, value: String, choices: [String]? = nil, minimum: Double? = nil,
                maximum: Double? = nil, step: Double? = nil, readOnly: Bool) {
        (self.name, self.label, self.kind, self.value, self.choices) = (name, label, kind, value, choices)
        (self.minimum, self.maximum, self.step, self.readOnly) = (minimum, maximum, step, readOnly)
    }

    enum CodingKeys: String, CodingKey {
        case name, label, kind, value, choices, minimum, maximum, step
        case readOnly = "read_only"
    }
}
