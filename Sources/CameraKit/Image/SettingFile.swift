import FileSystem

/// A file a setting names (a drawing, a background, a template), read whole.
enum SettingFile {
    /// The file's bytes, at most `limit` of them.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` naming `what` (`the drawing`) when the file is
    ///   missing, unreadable or not a regular file; ``CaptureError/Code/unreadableFile`` when it is
    ///   larger than `limit`.
    static func contents(of path: String, naming what: String, limit: Int) throws(CaptureError) -> [UInt8] {
        do {
            return try RegularFile.contents(of: path, limit: limit)
        } catch {
            if case .tooLarge = error.kind { throw CaptureError(.unreadableFile, "\(what) \(path) cannot be used: \(error.reason)") }
            throw CaptureError(.invalidSetting, "\(what) \(path.isEmpty ? "\"\"" : path) cannot be read: \(error.reason)")
        }
    }
}
