@_exported import Templates

extension RGBColor {
    /// A colour a setting names (``RGBColor/init(parsing:)``).
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` saying what a colour is written as.
    public init(setting text: String) throws(CaptureError) {
        guard let color = RGBColor(parsing: text) else { throw CaptureError(.invalidSetting, RGBColor.refusal(of: text)) }
        self = color
    }
}
