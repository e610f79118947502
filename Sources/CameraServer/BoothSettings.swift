import Blocking
import CameraKit
import CameraOperator
import FileSystem
import FoundationEssentials
import Glibc
import GStreamer
import JSON
import OperatorWire
import Synchronization

/// A served booth's settings: countdown, shots, layout or template, filter, background, stamp,
/// review, printing, retakes, and how long a guest's result stays before the attract screen. `/api/settings` reads and changes them; a change applies to the running
/// picture at once and to the next booth, and is kept in the settings file the server was given
/// (`serve --settings FILE`), which the next start reads.
///
/// Templates and backgrounds are chosen by file name from the folders the server was given, and
/// read there without following a link.
public final class BoothSettings: Sendable {
    /// Where templates and backgrounds are chosen from (`nil`: none can be).
    public struct Folders: Sendable {
        public var templates: String?
        public var backgrounds: String?

        public init(templates: String? = nil, backgrounds: String? = nil) {
            (self.templates, self.backgrounds) = (templates, backgrounds)
        }
    }

    /// The settings as values, and what they name read and checked.
    struct Resolved: Sendable {
        let record: SettingsRecord
        let layout: ShotLayout
        let filters: [ImageFilter]
        let greenScreen: GreenScreen?
        let stamp: TextMark?
        /// Whether the settings say the caption (once one was set, even empty), and the caption.
        let caption: (isSaid: Bool, mark: TextMark?)

        /// `image` with these settings' filters, background, stamp and caption in place of its own.
        func applied(to image: ImageSettings) -> ImageSettings {
            var image = image
            image.filters = filters
            image.greenScreen = greenScreen
            image.texts.removeAll { $0.isStamp || caption.isSaid && $0.isCaption }
            if let stamp { image.texts.append(stamp) }
            if let mark = caption.mark { image.texts.append(mark) }
            return image
        }
    }

    /// The settings file, when there is one.
    public let file: String?
    let folders: Folders
    let hasPrinter: Bool
    private let current: Mutex<Resolved>
    /// Files are read and written here, never on Swift's shared threads.
    private let lane = BlockingLane(label: "booth-settings")

    /// The settings file's name in the library's folder, where `serve` keeps them unless told elsewhere.
    public static let fileName = "booth-settings.json"

    /// The largest settings file read: its values' limits keep every file camctl writes far below it.
    static let maximumFileSize = 65_536

    /// The settings a booth has unless told otherwise: ``BoothPlan``'s, and no filter, background or stamp.
    static let defaults: SettingsRecord = {
        let plan = BoothPlan()
        var record = SettingsRecord(countdown: plan.countdown, shots: plan.shots, layout: ShotLayout.BuiltIn.grid.rawValue, filter: "", background: "", stamp: "",
                                    review: plan.review != nil, print: false, retake: plan.retakes, attractAfter: defaultAttractAfter)
        // No caption of the settings' own until one is set: a caption serve was started with stays.
        (record.animation, record.copies, record.codec, record.keyColor) = ("", 1, "jpeg", "green")
        return record
    }()

    /// The most copies of a booth's picture printed at once.
    static let maximumCopies = 10

    /// How long a guest's result stays on the kiosk before the attract screen: long enough to scan its code.
    static let defaultAttractAfter = 30.0

    /// Reads the settings file (the defaults when it does not exist yet) and checks what it says.
    ///
    /// - Throws: ``CaptureError/Code/unreadableFile`` when the file cannot be read as settings;
    ///   ``CaptureError/Code/invalidSetting`` when a setting is wrong or names what is not there.
    public init(file: String?, folders: Folders, hasPrinter: Bool) throws(CaptureError) {
        (self.file, self.folders, self.hasPrinter) = (file, folders, hasPrinter)
        var record = Self.defaults
        if let file {
            // What a write killed half-way left beside the file (the file itself is whole: old or new).
            DurableFile.removeLeftovers(of: file)
        }
        if let file, FileManager.default.fileExists(atPath: file) {
            let bytes: [UInt8]
            do throws(RegularFile.ReadError) {
                bytes = try RegularFile.contents(of: file, limit: Self.maximumFileSize)
            } catch {
                throw CaptureError(.unreadableFile, "the settings file \(file) cannot be read: \(error.reason); fix or remove it")
            }
            do throws(JSONError) {
                record = record.changed(by: try WireJSON.decode(SettingsRecord.self, from: bytes))
            } catch {
                throw CaptureError(.unreadableFile, "the settings file \(file) is not settings as /api/settings says them (\(error.reason)); fix or remove it")
            }
            do {
                current = Mutex(try Self.resolve(record, folders: folders, hasPrinter: hasPrinter))
            } catch {
                throw CaptureError(.unreadableFile, "the settings file \(file) names what cannot be used: \(error.message); fix or remove it")
            }
            return
        }
        current = Mutex(try Self.resolve(record, folders: folders, hasPrinter: hasPrinter))
    }

    /// `image` as these settings have it: their filter, background and stamp.
    public func image(from image: ImageSettings) -> ImageSettings {
        current.withLock { $0 }.applied(to: image)
    }

    /// The settings, with what may be chosen beside them.
    func record() async -> SettingsRecord {
        var record = current.withLock { $0.record }
        let folders = self.folders
        let (templates, backgrounds) = await lane.run {
            (folders.templates.map { Self.names(in: $0, endingIn: ["json"]) } ?? [],
             folders.backgrounds.map { Self.names(in: $0, endingIn: ["jpg", "jpeg", "png"]) } ?? [])
        }
        (record.templates, record.backgrounds) = (templates, backgrounds)
        record.filters = ImageFilter.allCases.map(\.rawValue).filter { $0 != ImageFilter.none.rawValue }
        record.printer = hasPrinter
        record.keptIn = file
        return record
    }

    /// The next booth's layout, and whether its picture is printed.
    var layout: ShotLayout { current.withLock { $0.layout } }
    var printsBooths: Bool { current.withLock { $0.record.print ?? false } }
    /// How many copies of a booth's picture are printed.
    var copies: Int { current.withLock { $0.record.copies ?? 1 } }

    /// What a booth request leaves out, filled in from the settings: countdown, shots, review, retake, animation, codec and a grid's layout.
    func filling(_ request: [String: JSONValue]) -> [String: JSONValue] {
        let record = current.withLock { $0.record }
        var request = request
        if request["countdown"] == nil, let countdown = record.countdown { request["countdown"] = .number(countdown) }
        if request["shots"] == nil, let shots = record.shots { request["shots"] = .integer(Int64(shots)) }
        if request["review"] == nil, let review = record.review { request["review"] = .bool(review) }
        if request["retake"] == nil, let retake = record.retake { request["retake"] = .bool(retake) }
        if request["animation"] == nil, let animation = record.animation, !animation.isEmpty { request["animation"] = .string(animation) }
        if request["codec"] == nil, let codec = record.codec { request["codec"] = .string(codec) }
        if request["layout"] == nil, let layout = record.layout, ShotLayout.BuiltIn(rawValue: layout) != nil { request["layout"] = .string(layout) }
        return request
    }

    /// Changes the settings by what `change` sets: checks them, reads what they name, keeps them
    /// in the file, and applies the picture's part to the running session through `apply`. A
    /// change refused, or that cannot be kept, changes nothing; one the session refuses leaves the
    /// settings in force and the file as they were. Changes are made one at a time (the caller
    /// admits them as a ``Flow/settingsChange``).
    func change(by change: SettingsRecord, apply: @Sendable (Resolved) async throws(CaptureError) -> Void) async throws(CaptureError) -> SettingsRecord {
        let before = current.withLock { $0 }
        let record = before.record.changed(by: change.values)
        let (folders, hasPrinter) = (self.folders, self.hasPrinter)
        let resolved = try await lane.run { () throws(CaptureError) in try Self.resolve(record, folders: folders, hasPrinter: hasPrinter) }
        // Kept first, then applied: a file that cannot be written leaves the picture untouched,
        // and a picture that cannot be changed puts the file back as it was.
        try await keep(record)
        do {
            try await apply(resolved)
        } catch {
            try? await keep(before.record)
            throw error
        }
        current.withLock { $0 = resolved }
        return await self.record()
    }

    /// Writes `record` durably to the settings file, when there is one.
    private func keep(_ record: SettingsRecord) async throws(CaptureError) {
        guard let file else { return }
        try await lane.run { () throws(CaptureError) in
            do throws(DurableFile.WriteError) {
                try DurableFile.write(WireJSON.bytes(record.values, pretty: true), to: file)
            } catch {
                throw CaptureError(.pipeline, "the settings could not be kept in \(file) (\(String(cString: strerror(error.code)))), so nothing was changed; free the disk or fix the file's folder")
            }
        }
    }

    /// Checks every setting and reads the template and background they name.
    static func resolve(_ record: SettingsRecord, folders: Folders, hasPrinter: Bool) throws(CaptureError) -> Resolved {
        guard let countdown = record.countdown, (0...3600).contains(countdown) else {
            throw CaptureError(.invalidSetting, "countdown must be a number of seconds from 0 to 3600")
        }
        let layout: ShotLayout
        let name = record.layout ?? ShotLayout.BuiltIn.grid.rawValue
        if let builtIn = ShotLayout.BuiltIn(rawValue: name) {
            layout = builtIn.layout
        } else {
            guard let folder = folders.templates else {
                throw CaptureError(.invalidSetting, "there is no layout \"\(name)\"; use 2x2 or 1x4, or start camctl serve with --templates DIR")
            }
            guard isFileName(name) else { throw CaptureError(.invalidSetting, "\"\(name)\" is not a template's file name in the templates' folder") }
            do {
                layout = .template(try TemplateFile(named: name, in: folder))
            } catch {
                throw CaptureError(.invalidSetting, error.message, remedy: error.remedy)  // a template that cannot be used is the request's to mend
            }
        }
        guard record.shots.map({ (1...(layout.places ?? 16)).contains($0) }) == true else {
            throw CaptureError(.invalidSetting, "shots must be a whole number from 1 to \(layout.places ?? 16)\(layout.places == nil ? "" : ", the template's slots")")
        }
        var filters: [ImageFilter] = []
        let names = (record.filter ?? "").split(separator: "+").map(String.init)
        guard names.count <= ImageSettings.maximumFilters else {
            throw CaptureError(.invalidSetting, "\(names.count) filters are more than the \(ImageSettings.maximumFilters) a picture takes")
        }
        for name in names {
            guard let filter = ImageFilter(rawValue: name) else {
                throw CaptureError(.invalidSetting, "there is no filter \"\(name)\"; the filters are \(ImageFilter.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            if filter != .none { filters.append(filter) }
        }
        let key: GreenScreen.Key
        do {
            key = try GreenScreen.Key(parsing: record.keyColor ?? "green")
        } catch {
            throw CaptureError(.invalidSetting, "key_color must be green, blue or a colour as #RRGGBB")
        }
        var greenScreen: GreenScreen?
        if let name = record.background, !name.isEmpty {
            guard let folder = folders.backgrounds else {
                throw CaptureError(.invalidSetting, "this server has no backgrounds; start camctl serve with --backgrounds DIR")
            }
            guard isFileName(name) else { throw CaptureError(.invalidSetting, "\"\(name)\" is not a picture's file name in the backgrounds' folder") }
            do {
                greenScreen = try GreenScreen(named: name, in: folder)
                greenScreen?.key = key
            } catch {
                throw CaptureError(.invalidSetting, error.message, remedy: error.remedy)
            }
        }
        var stamp: TextMark?
        if let format = record.stamp, !format.isEmpty {
            let mark = TextMark(.stamp(format: format))
            try mark.validate()
            stamp = mark
        }
        guard (5...3600).contains(record.attractAfter ?? defaultAttractAfter) else {
            throw CaptureError(.invalidSetting, "attract_after must be a number of seconds from 5 to 3600")
        }
        var caption: TextMark?
        if let words = record.caption, !words.isEmpty {
            let mark = TextMark(.caption(words))
            try mark.validate()
            caption = mark
        }
        guard ["", "mp4", "gif", "boomerang"].contains(record.animation ?? "") else {
            throw CaptureError(.invalidSetting, "animation must be mp4, gif, boomerang or empty for none")
        }
        guard ["jpeg", "hevc"].contains(record.codec ?? "jpeg") else { throw CaptureError(.invalidSetting, "codec must be jpeg or hevc") }
        guard (1...maximumCopies).contains(record.copies ?? 1) else {
            throw CaptureError(.invalidSetting, "copies must be a whole number from 1 to \(maximumCopies)")
        }
        if record.print == true, !hasPrinter {
            throw CaptureError(.invalidSetting, "this server has no printer; start camctl serve with --printer NAME or ipp://…")
        }
        return Resolved(record: record, layout: layout, filters: filters, greenScreen: greenScreen, stamp: stamp, caption: (record.caption != nil, caption))
    }

    /// Whether `name` is a plain file's name: no folder, not hidden.
    private static func isFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.hasPrefix(".") && name.utf8.count <= 255
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// The regular files of `folder` with one of `extensions`, sorted; links left out.
    private static func names(in folder: String, endingIn extensions: Set<String>) -> [String] {
        ConfinedFile.names(of: folder).filter { name in
            guard isFileName(name), extensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()),
                  let status = ConfinedFile.status(of: name, in: folder) else { return false }
            return status.st_mode & S_IFMT == S_IFREG
        }.sorted()
    }
}
