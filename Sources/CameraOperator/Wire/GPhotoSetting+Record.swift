import GPhoto2
import OperatorWire

extension GPhotoSetting {
    /// The setting as every front end says it.
    public var record: CameraSettingRecord {
        CameraSettingRecord(name: name, label: label, kind: kind.rawValue, value: value, choices: choices.isEmpty ? nil : choices,
                            minimum: range.map { Double($0.minimum) }, maximum: range.map { Double($0.maximum) },
                            step: range.map { Double($0.step) }, readOnly: isReadOnly)
    }
}
