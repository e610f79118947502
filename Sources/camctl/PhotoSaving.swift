import CameraKit
import FileSystem
import Foundation
import PhotoLibrary

/// Where photos go and what happens after each is saved: the library, a copy at `--output`
/// (a path or a pattern), the `--latest` symlink, a `--metadata` sidecar, an `--exec` hook, and
/// the line or JSON object printed for it.
struct PhotoSaving {
    static let options: [ParsedArguments.Option] = [
        .init(name: "--output", value: "PATH", short: "-o"),
        .init(name: "--library", value: "DIR"),
        .init(name: "--no-library", value: nil),
        .init(name: "--latest", value: "PATH"),
        .init(name: "--exec", value: "CMD"),
        .init(name: "--metadata", value: "FILE"),
        .init(name: "--json", value: nil),
    ]

    /// The photo library, unless `--no-library`.
    let library: PhotoLibrary?
    /// `--output`: a path, a pattern with `%d` (counter, `%04d` padded) and `%t` (time), or `-`.
    let output: String?
    let latest: String?
    let hook: String?
    let metadata: String?
    let printsJSON: Bool

    /// A picture to save: a photo, or a booth's composed picture.
    struct Item {
        let data: [UInt8]
        let thumbnail: [UInt8]
        let codec: PhotoSettings.Codec
        let width: Int
        let height: Int
        let orientation: Int
        let capturedAt: Date
        var albums: [String] = []
        var extra: [String: Any] = [:]

        init(_ photo: Photo, albums: [String] = []) {
            data = photo.fileData
            thumbnail = photo.thumbnailData
            codec = photo.resolvedSettings.codec
            (width, height, orientation) = (photo.width, photo.height, photo.orientation)
            capturedAt = photo.requestedAt
            self.albums = albums
            extra = ["quality": photo.resolvedSettings.quality, "flash_fired": photo.resolvedSettings.isFlashFired]
        }

        init(composed data: [UInt8], width: Int, height: Int, capturedAt: Date, albums: [String]) {
            self.data = data
            thumbnail = []
            codec = .jpeg
            (self.width, self.height, orientation) = (width, height, 1)
            self.capturedAt = capturedAt
            self.albums = albums
            extra = ["composed": true]
        }
    }

    /// What was written for one picture.
    struct Saved {
        let path: String
        let libraryPhoto: LibraryPhoto?
        let copy: String?
        let item: Item
    }

    /// Which photo library, if any.
    enum Library: Equatable {
        /// `--library DIR`, else `$CAMCTL_LIBRARY`, else the pictures folder.
        case standard
        case folder(String)
        case none
    }

    /// Reads the command-line options. `photoCount` is how many photos the command may take.
    init(_ arguments: ParsedArguments, photoCount: Int?) throws(CommandFailure) {
        try arguments.refuseTogether("--library", "--no-library")
        let output = arguments.string("--output")
        if arguments.flag("--no-library"), output == nil {
            throw CommandFailure("--no-library needs --output PATH, or the photo would not be kept anywhere", exitCode: .usage)
        }
        try self.init(library: Self.library(arguments), output: output, latest: arguments.string("--latest"),
                      hook: arguments.string("--exec"), metadata: arguments.string("--metadata"),
                      printsJSON: arguments.flag("--json"), photoCount: photoCount)
    }

    /// The library `--library` and `--no-library` ask for.
    static func library(_ arguments: ParsedArguments) -> Library {
        if arguments.flag("--no-library") { return .none }
        return arguments.string("--library").map(Library.folder) ?? .standard
    }

    /// Opens the library and checks that every destination can be written, before any camera starts.
    init(library: Library, output: String?, latest: String? = nil, hook: String? = nil, metadata: String? = nil,
         printsJSON: Bool, photoCount: Int?) throws(CommandFailure) {
        (self.output, self.latest, self.hook, self.metadata, self.printsJSON) = (output, latest, hook, metadata, printsJSON)
        switch library {
        case .none: self.library = nil
        case .standard: self.library = try Self.openLibrary(nil)
        case .folder(let folder): self.library = try Self.openLibrary(folder)
        }
        if output == "-", metadata == "-" {
            throw CommandFailure("--output - and --metadata - cannot both use standard output", exitCode: .usage)
        }
        for (option, path) in [("--output", output), ("--metadata", metadata)] {
            guard let path, path != "-" else { continue }
            if photoCount != 1, !Self.isPattern(path) {
                throw CommandFailure("\(option) \(path) would be overwritten by each photo; put %d (a counter) or %t (the time) in the name", exitCode: .usage)
            }
            try Self.checkPattern(path, option: option)
            try checkWritable(Self.expand(path, number: 1, date: Date()))
        }
        if let latest { try checkLatest(latest) }
    }

    /// Refuses a pattern whose `%NNd` asks for more digits than a counter can have.
    private static func checkPattern(_ pattern: String, option: String) throws(CommandFailure) {
        for match in pattern.matches(of: /%([0-9]+)d/) where (Int(match.output.1) ?? Int.max) > maximumCounterWidth {
            throw CommandFailure("\(option) \(pattern): %\(match.output.1)d pads the counter to more than \(maximumCounterWidth) digits; use at most %0\(maximumCounterWidth)d",
                                 exitCode: .usage)
        }
    }

    /// The widest zero-padded counter a pattern may ask for (`%020d`).
    static let maximumCounterWidth = 20

    /// Fails early when a copy could not be written at `path` (``OutputFile``'s rules), or would
    /// replace one of the library's own files.
    private func checkWritable(_ path: String) throws(CommandFailure) {
        try refuseLibraryFile(path)
        try Self.checkWritable(path)
    }

    /// A copy never replaces a file inside the library folder (its index, a photo, a thumbnail);
    /// a new file there is not the library's and is never indexed.
    private func refuseLibraryFile(_ path: String) throws(CommandFailure) {
        guard let library, FileManager.default.fileExists(atPath: path), OutputFile.isInside(path, folder: library.folder) else { return }
        throw CommandFailure(LibraryError(DurableFile.WriteError(path: path, refusal: .libraryFile(folder: library.folder))))
    }

    /// `--latest` replaces only a symbolic link (its own, from an earlier run), never a file.
    private func checkLatest(_ path: String) throws(CommandFailure) {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFLNK {
            throw CommandFailure(LibraryError(DurableFile.WriteError(path: path, refusal: .notALink)))
        }
        try Self.checkWritable(path)
    }

    /// Opens the library named by `--library` or the default one; says what was repaired.
    /// `forReading` opens a library this user may not write read-only instead of refusing it.
    static func openLibrary(_ folder: String?, forReading: Bool = false) throws(CommandFailure) -> PhotoLibrary {
        let library: PhotoLibrary
        do {
            library = try PhotoLibrary(folder: folder ?? PhotoLibrary.defaultFolder(), forReading: forReading)
        } catch {
            throw CommandFailure(error)
        }
        let repaired = library.reconciliation
        if !repaired.dropped.isEmpty {
            Console.note("the library had \(repaired.dropped.count) photo(s) whose file was gone (\(repaired.dropped.map { "#\($0.id)" }.joined(separator: ", "))); their entries were removed")
        }
        if !repaired.indexed.isEmpty {
            Console.note("the library had \(repaired.indexed.count) photo file(s) without an entry; they were added")
        }
        if !repaired.skipped.isEmpty {
            let named = repaired.skipped.prefix(5).joined(separator: ", ") + (repaired.skipped.count > 5 ? " and \(repaired.skipped.count - 5) more" : "")
            Console.note("the library has \(repaired.skipped.count) file(s) named as photos that are not whole pictures, left as they are and not listed: \(named)")
        }
        return library
    }

    /// Saves photo number `number` (from 1) everywhere it should go, runs the hook, and prints
    /// it; returns `nil` when there is nowhere to save it (a booth shot with `--no-library`).
    @discardableResult
    func save(_ photo: Photo, number: Int, device: CaptureDevice, albums: [String] = []) async throws(CommandFailure) -> Saved? {
        try await save(Item(photo, albums: albums), number: number, device: device, copyTo: output)
    }

    /// Saves a booth's composed picture into the library and to `copyTo`, and prints it.
    func saveComposition(_ data: [UInt8], width: Int, height: Int, takenAt: Date, device: CaptureDevice,
                         copyTo: String?) async throws(CommandFailure) {
        let item = Item(composed: data, width: width, height: height, capturedAt: takenAt, albums: ["booth"])
        guard try await save(item, number: 1, device: device, copyTo: copyTo) != nil else {
            throw CommandFailure("the composed picture has nowhere to go (no library, no output path); keep the library, or name an output", exitCode: .usage)
        }
    }

    private func save(_ item: Item, number: Int, device: CaptureDevice, copyTo output: String?) async throws(CommandFailure) -> Saved? {
        var libraryPhoto: LibraryPhoto?
        if let library {
            do {
                libraryPhoto = try library.add(NewPhoto(
                    data: item.data, thumbnail: item.thumbnail, codec: item.codec.rawValue,
                    width: item.width, height: item.height, orientation: item.orientation,
                    capturedAt: item.capturedAt, device: device.name, albums: item.albums))
            } catch {
                throw CommandFailure(error)
            }
        }
        var copy: String?
        if let output {
            if output == "-" {
                guard Console.bytes(item.data) else {
                    throw CommandFailure("the photo could not be written to standard output: the reader went away"
                        + (library == nil ? "; it is not kept anywhere else" : "; it is in the library"), exitCode: .ioError)
                }
            } else {
                let path = Self.expand(output, number: number, date: item.capturedAt)
                do {
                    try refuseLibraryFile(path)
                    try Self.write(item.data, to: path)
                } catch {
                    guard let libraryPhoto else { throw error }
                    throw CommandFailure(error.message + "; the photo is in the library as \(libraryPhoto.path)", exitCode: error.exitCode)
                }
                copy = path
            }
        }
        guard let path = libraryPhoto?.path ?? copy ?? (output == "-" ? "-" : nil) else { return nil }
        let saved = Saved(path: path, libraryPhoto: libraryPhoto, copy: copy, item: item)
        try await afterSaving(saved, device: device, number: number, toStandardOutput: output == "-")
        return saved
    }

    private func afterSaving(_ saved: Saved, device: CaptureDevice, number: Int, toStandardOutput: Bool) async throws(CommandFailure) {
        let record = Self.record(saved, device: device)
        if let latest, saved.path != "-" {
            try checkLatest(latest)
            // A new link renamed over the old one, so the link is never missing.
            let temporary = latest + ".\(getpid()).tmp"
            unlink(temporary)
            guard symlink(saved.path, temporary) == 0, rename(temporary, latest) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw CommandFailure("--latest \(latest) could not be made: \(reason)", exitCode: .cannotCreate)
            }
        }
        if let metadata {
            if metadata == "-" {
                try Console.json(record)
            } else {
                let data = (try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])) ?? Data()
                let path = Self.expand(metadata, number: number, date: saved.item.capturedAt)
                try refuseLibraryFile(path)
                try Self.write(Array(data) + [0x0A], to: path)
            }
        }
        if printsJSON {
            try Console.json(record)
        } else if !toStandardOutput, metadata != "-" {
            try Console.result(saved.path)
        }
        if let hook { try await run(hook, for: saved) }
    }

    /// Runs `--exec` through the shell with `CAMCTL_PHOTO` (the path) and `CAMCTL_ID` set; a
    /// failing hook is reported but the photo stays saved. An interrupt while it runs ends it.
    private func run(_ hook: String, for saved: Saved) async throws(CommandFailure) {
        let ending = try await Hook(command: hook).run(adding: [
            "CAMCTL_PHOTO": saved.path,
            "CAMCTL_ID": saved.libraryPhoto.map { String($0.id) } ?? "",
            "CAMCTL_COPY": saved.copy ?? "",
        ])
        switch ending {
        case .exited(0): break
        case .exited(let status): Console.note("--exec \"\(hook)\" ended with status \(status) for \(saved.path)")
        case .signalled(let signal):
            Console.note("--exec \"\(hook)\" was ended by signal \(signal) (\(String(cString: strsignal(signal)))) for \(saved.path)")
        }
    }

    /// The JSON object printed (`--json`) and written (`--metadata`) for a photo.
    static func record(_ saved: Saved, device: CaptureDevice) -> [String: Any] {
        let item = saved.item
        var record: [String: Any] = [
            "path": saved.path,
            "id": saved.libraryPhoto.map { $0.id as Any } ?? NSNull(),
            "width": item.width, "height": item.height,
            "codec": item.codec.rawValue,
            "captured_at": isoTime(item.capturedAt),
            "device": device.name, "device_id": device.id,
            "bytes": item.data.count,
            "orientation": item.orientation,
            "thumbnail_path": saved.libraryPhoto?.thumbnailPath ?? NSNull(),
        ]
        record.merge(item.extra) { $1 }
        if let copy = saved.copy { record["output"] = copy }
        return record
    }

    /// ISO 8601 with milliseconds and the local offset.
    static func isoTime(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .colon)
            .dateTimeSeparator(.standard).timeSeparator(.colon))
    }

    /// `%d` → the number, `%04d` → zero-padded, `%t` → the capture time (`20261130-050132.123`), `%%` → `%`.
    static func expand(_ pattern: String, number: Int, date: Date) -> String {
        var result = ""
        var characters = pattern[...]
        while let character = characters.popFirst() {
            guard character == "%" else { result.append(character); continue }
            var width = ""
            while let digit = characters.first, digit.isASCII, digit.isNumber { width.append(digit); characters.removeFirst() }
            switch characters.popFirst() {
            case "d":
                let digits = String(number)
                let padding = max(0, min(Int(width) ?? 0, maximumCounterWidth) - digits.count)
                result += String(repeating: "0", count: padding) + digits
            case "t": result += PhotoLibrary.fileStamp(date)
            case "%": result += "%"
            case let other?: result += "%" + width + String(other)
            case nil: result += "%" + width
            }
        }
        return result
    }

    /// Whether a path names each photo differently (`%d`, `%04d` or `%t`).
    private static func isPattern(_ path: String) -> Bool {
        path.contains("%t") || path.range(of: "%[0-9]*d", options: .regularExpression) != nil
    }

    /// Writes a result file as ``OutputFile`` does: a regular file is replaced, a FIFO or
    /// device is written into, a folder or a link to nothing is refused.
    static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        do {
            try OutputFile.write(bytes, to: path)
        } catch {
            throw CommandFailure(LibraryError(error))
        }
    }

    static func checkWritable(_ path: String) throws(CommandFailure) {
        do {
            try OutputFile.check(path)
        } catch {
            throw CommandFailure(LibraryError(error))
        }
    }
}
