import FoundationEssentials

/// A composition template read from its JSON file, with the pictures it names read from the
/// template's folder (never through a link, never outside it) and checked, ready to compose.
public struct TemplateFile: Sendable, Equatable {
    /// The file it was read from.
    public let path: String
    public let template: CompositionTemplate
    /// The bytes of each picture the template names, by its name.
    public let pictures: [String: [UInt8]]

    /// Reads and checks the template and its pictures (JPEG or PNG, within a drawing's limits).
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` when the template or a picture is missing or
    ///   not a regular file inside the template's folder; ``CaptureError/Code/unreadableFile`` when
    ///   the template is not a valid one or a picture is damaged or too large.
    public init(path: String) throws(CaptureError) {
        let bytes = try SettingFile.contents(of: path, naming: "the template", limit: CompositionTemplate.maximumFileSize)
        try self.init(bytes, path: path, folder: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }

    /// Reads the template file `name` of `folder` as ``init(path:)`` does, never through a link:
    /// a template chosen from a folder of them.
    public init(named name: String, in folder: String) throws(CaptureError) {
        let bytes = try SettingFile.contents(named: name, in: folder, naming: "the template", folderName: "the templates' folder",
                                             limit: CompositionTemplate.maximumFileSize)
        try self.init(bytes, path: folder + "/" + name, folder: folder)
    }

    private init(_ bytes: [UInt8], path: String, folder: String) throws(CaptureError) {
        let template: CompositionTemplate
        do {
            template = try CompositionTemplate(json: bytes)
        } catch {
            throw CaptureError(.unreadableFile, "the template \(path) cannot be used: \(error.reason)")
        }
        var pictures: [String: [UInt8]] = [:]
        for name in template.pictures where pictures[name] == nil {
            let picture = try SettingFile.contents(named: name, in: folder, naming: "the template's picture", folderName: "the template's folder",
                                                   limit: DrawingOverlay.maximumFileSize)
            _ = try PictureHeader.size(of: picture, naming: "the template's picture \(name)")
            pictures[name] = picture
        }
        (self.path, self.template, self.pictures) = (path, template, pictures)
    }

    /// Composes JPEG shots into one JPEG as the template places them (``PhotoComposer/compose(_:template:pictures:quality:)``).
    public func compose(_ shots: [[UInt8]], quality: Int = 90) async throws(CaptureError) -> [UInt8] {
        try await PhotoComposer.compose(shots, template: template, pictures: pictures, quality: quality)
    }

    public static func == (left: TemplateFile, right: TemplateFile) -> Bool {
        left.path == right.path && left.template == right.template
    }
}
