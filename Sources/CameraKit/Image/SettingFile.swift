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

    /// The file `name` of `folder`, reached without following a link (``ConfinedFile``), at most `limit` bytes.
    ///
    /// - Throws: as ``contents(of:naming:limit:)``, naming the folder as `folderName` (`the templates' folder`).
    static func contents(named name: String, in folder: String, naming what: String, folderName: String, limit: Int) throws(CaptureError) -> [UInt8] {
        do {
            return try ConfinedFile.contents(of: name, in: folder, limit: limit)
        } catch {
            if case .tooLarge = error.kind { throw CaptureError(.unreadableFile, "\(what) \(name) cannot be used: \(error.reason)") }
            throw CaptureError(.invalidSetting, "\(what) \(name) cannot be read from \(folderName): \(error.reason)")
        }
    }
}
