import CameraKit
import CameraOperator
import Formatting
import FoundationEssentials
import Glibc
import HEIF
import ImageMetadata
import JSON
import OperatorWire
import PhotoLibrary
import PipelineScript

/// `camctl library`: look at, copy out and remove the photos in the library.
struct LibraryCommand: Subcommand {
    static let name = "library"
    static let synopsis = "camctl library  list [--album NAME]|albums|show ID|export ID DEST|delete ID|sheet --output PATH|process   [--library DIR] [--json]"
    static let summary = "list, show, export and delete the photos in the library, or make a contact sheet"
    static let help = """
        list     the photos, newest first: id, time taken, size, codec, camera (--album NAME: those of one album)
        albums   the albums, each with how many photos it holds
        show     all that is recorded about one photo
        export   a copy of the photo's file at DEST (a file, or a folder to put it in)
        delete   the photo's file, its thumbnail and its entry
        sheet    one JPEG with the thumbnails of all photos in a grid (--columns, default 6), newest first; at most
                 100 photos a sheet (--per-sheet N for fewer): a library of more makes one sheet of each 100, numbered
                 by the %d in --output (sheet-%d.jpg)
        process  finishes the photos still processing (HEICs whose run ended before they were made), printing each
        The library is --library DIR, else $CAMCTL_LIBRARY, else ~/Pictures/camctl.
        --json prints JSON objects instead of text.
        """
    static let options: [ParsedArguments.Option] = [
        .init(name: "--library", value: "DIR"), .init(name: "--json", value: nil),
        .init(name: "--output", value: "PATH", short: "-o"), .init(name: "--columns", value: "N"), .init(name: "--per-sheet", value: "N"),
        .init(name: "--verbose", value: nil), .init(name: "--album", value: "NAME"),
    ]
    static let words = ["list", "albums", "show", "export", "delete", "sheet", "process"]

    enum Action {
        case list(album: String?), albums, show(Int64), export(Int64, String), delete(Int64), sheet(String, columns: Int, perSheet: Int), process
    }

    let action: Action
    let folder: String?
    let printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        folder = arguments.string("--library")
        printsJSON = arguments.flag("--json")
        let words = arguments.positionals
        func id(_ index: Int) throws(CommandFailure) -> Int64 {
            guard let id = Int64(words[index]), id > 0 else {
                throw CommandFailure("\"\(words[index])\" is not a photo id; camctl library list shows the ids", exitCode: .usage)
            }
            return id
        }
        switch words.first {
        case "list":
            try arguments.requirePositionals(["list"])
            action = .list(album: arguments.string("--album"))
        case "albums":
            try arguments.requirePositionals(["albums"])
            action = .albums
        case "show":
            try arguments.requirePositionals(["show", "ID"])
            action = .show(try id(1))
        case "export":
            try arguments.requirePositionals(["export", "ID", "DEST"])
            action = .export(try id(1), words[2])
        case "delete":
            try arguments.requirePositionals(["delete", "ID"])
            action = .delete(try id(1))
        case "sheet":
            try arguments.requirePositionals(["sheet"])
            guard let output = arguments.string("--output") else {
                throw CommandFailure("library sheet needs --output PATH for the contact sheet", exitCode: .usage)
            }
            action = .sheet(output, columns: try arguments.integer("--columns", in: 1...50) ?? 6,
                            perSheet: try arguments.integer("--per-sheet", in: 1...Self.photosPerSheet) ?? Self.photosPerSheet)
        case "process":
            try arguments.requirePositionals(["process"])
            action = .process
        case let word?:
            let suggestion = Spelling.closest(to: word, among: Self.words).map { "; did you mean \($0)?" } ?? ""
            throw CommandFailure("library has no action \"\(word)\"\(suggestion); use list, albums, show, export, delete, sheet or process", exitCode: .usage)
        case nil:
            throw CommandFailure("library needs an action: list, albums, show ID, export ID DEST, delete ID, sheet --output PATH or process", exitCode: .usage)
        }
    }

    /// Whether the action changes the library (the others only read it).
    private var writes: Bool {
        switch action {
        case .delete, .process: true
        default: false
        }
    }

    func run() async throws(CommandFailure) {
        // The library's SQLite and files are used where libraries are opened, off Swift's shared
        // threads; a sheet's composing and the finishing of photos wait there for nothing.
        switch try await PhotoSaving.onLane({ () throws(CommandFailure) -> sending Remaining? in try runOnLane() }) {
        case .finishing(let folder)?:
            try await process(folder)
        case .sheets(let library, let photos, let output, let columns, let perSheet)?:
            try await makeSheets(of: photos, from: library, columns: columns, perSheet: perSheet, to: output)
        case nil:
            break
        }
    }

    /// What is left for `run()` once the library has been used on the lane.
    private enum Remaining {
        /// Its photos still processing are to be finished.
        case finishing(folder: String)
        /// These photos are to be put on sheets of `columns`, `perSheet` photos each, at `output`.
        case sheets(PhotoLibrary, [LibraryPhoto], output: String, columns: Int, perSheet: Int)
    }

    /// Lists, shows, copies out or deletes, the library's SQLite and files used on the caller's
    /// thread; for finishing and sheets, opens the library and says what is left to do.
    private func runOnLane() throws(CommandFailure) -> sending Remaining? {
        // Listing, showing and copying out only read the library.
        let library = try PhotoSaving.openLibrary(folder, forReading: !writes)
        do {
            switch action {
            case .list(let album):
                let photos = if let album { try library.photos(inAlbum: album) } else { try library.photos() }
                // Nothing listed is said on standard error, so an empty answer is never a silent one.
                if photos.isEmpty, let album {
                    let albums = try library.albums().map(\.name)
                    Console.note("no photo is in the album \(album)"
                        + (albums.isEmpty ? "; the library has no albums yet" : "; the library's albums: \(albums.joined(separator: ", "))"))
                } else if photos.isEmpty {
                    Console.note("the library \(library.folder) holds no photos yet")
                }
                if printsJSON {
                    for photo in photos { try Console.json(photo.record) }
                } else if !photos.isEmpty {
                    try Console.result(Self.table(photos))
                }
            case .albums:
                for (name, count) in try library.albums() {
                    if printsJSON {
                        try Console.json(AlbumRecord(album: name, photos: count))
                    } else {
                        try Console.result("\(name)  \(count) photo\(count == 1 ? "" : "s")")
                    }
                }
            case .show(let id):
                let photo = try library.photo(id: id)
                var record = photo.record
                if photo.codec == "hevc" { record.heifItems = try Self.heifItems(of: library.contents(of: photo), path: photo.path) }
                if printsJSON {
                    try Console.json(record)
                } else {
                    // A line a field, as the JSON names it.
                    let fields = (try? JSONValue(parsing: WireJSON.bytes(record)))?.object ?? [:]
                    let width = fields.keys.map(\.count).max() ?? 0
                    for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
                        try Console.result(key.padded(to: width) + "  " + Self.shown(value))
                    }
                }
            case .export(let id, let destination):
                try Console.result(try library.export(id: id, to: destination))
            case .delete(let id):
                try library.delete(id: id)
                if printsJSON { try Console.json(["deleted": .integer(id)] as JSONValue) } else { try Console.result("deleted \(id)") }
            case .process:
                return .finishing(folder: library.folder)
            case .sheet(let output, let columns, let perSheet):
                return .sheets(library, try library.photos(), output: output, columns: columns, perSheet: perSheet)
            }
            return nil
        } catch let error as LibraryError {
            throw CommandFailure(error)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("the library could not be read: \(error)", exitCode: .ioError)
        }
    }

    /// The largest side of a picture put on a sheet: a photo of the largest sensors.
    static let largestSheetPicture = 16_384

    /// The most photos on one contact sheet: at any number of columns its picture stays within
    /// JPEG's 65,535 pixels a side, and its composition's memory is bounded, however large the library.
    static let photosPerSheet = 100

    /// Contact sheets: every photo's thumbnail in a grid, newest first, 320x240 cells, `perSheet`
    /// photos to a sheet, each sheet made and written before the next one's thumbnails are read.
    private func makeSheets(of photos: [LibraryPhoto], from library: PhotoLibrary, columns: Int, perSheet: Int,
                            to output: String) async throws(CommandFailure) {
        let pattern = OutputPattern(output)
        // Every sheet is made at the same time: only a number tells them apart (`%t` would not).
        guard photos.count <= perSheet || pattern.numbersEachPicture else {
            throw CommandFailure("the library has \(photos.count) photos, more than a sheet holds (\(perSheet)); put %d in --output "
                + "(sheet-%d.jpg) for a sheet of each \(perSheet)", exitCode: .usage)
        }
        let now = Date()
        var made = 0
        for start in stride(from: 0, to: photos.count, by: perSheet) {
            // Checked before any picture of the sheet is read: a place that cannot be written costs no work.
            let path = pattern.path(number: made + 1, date: now)
            try PhotoSaving.checkWritable(path)
            let thumbnails = Self.sheetPictures(of: photos[start..<min(start + perSheet, photos.count)], from: library)
            guard !thumbnails.isEmpty else { continue }
            made += 1
            let layout = PhotoComposer.Layout(columns: min(columns, thumbnails.count), rows: (thumbnails.count + columns - 1) / columns,
                                              cellWidth: 320, cellHeight: 240, margin: 8)
            let sheet: [UInt8]
            do {
                sheet = try await PhotoComposer.compose(thumbnails, layout: layout)
            } catch {
                throw CommandFailure(error)
            }
            try await PhotoSaving.write(sheet, to: path)
            if printsJSON {
                try Console.json(["path": .string(path), "width": .integer(Int64(layout.width)), "height": .integer(Int64(layout.height)),
                                  "photos": .integer(Int64(thumbnails.count))] as JSONValue)
            } else {
                try Console.result(path)
            }
        }
        guard made > 0 else {
            throw CommandFailure("the library has no photos to put on a sheet", exitCode: .dataError)
        }
    }

    /// The pictures of `photos` a sheet shows: each one's thumbnail (or its file without one).
    /// Each picture is looked at before it is decoded: one that is no JPEG, or says it is larger
    /// than any camera's, is named and left off, not decoded into gigabytes.
    private static func sheetPictures(of photos: ArraySlice<LibraryPhoto>, from library: PhotoLibrary) -> [[UInt8]] {
        photos.compactMap { photo in
            guard let picture = try? library.contents(of: photo, thumbnail: photo.thumbnailPath != nil),
                  let size = JPEGFile.dimensions(of: picture),
                  (1...Self.largestSheetPicture).contains(size.width), (1...Self.largestSheetPicture).contains(size.height) else {
                Console.note("photo \(photo.id) (\(photo.path)) has no JPEG picture of a camera's size to show; it is left off the sheet")
                return nil
            }
            return picture
        }
    }

    /// A HEIC file's items as its boxes list them: `1 hvc1 1920x1080 primary; 2 hvc1 320x180 thumbnail; 3 Exif`.
    /// A field's value as `library show` prints it: text as it is, nothing for `null`.
    static func shown(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let flag): "\(flag)"
        case .integer(let number): "\(number)"
        case .number(let number): "\(number)"
        case .string(let text): text.terminalSafe(limit: 1000)  // one line, whoever wrote it
        case .array, .object: String(decoding: value.text(), as: UTF8.self)
        }
    }

    static func heifItems(of data: [UInt8], path: String) throws(CommandFailure) -> String {
        let contents: HEIFContents
        do {
            contents = try HEIFContents(parsing: data)
        } catch {
            throw CommandFailure("\(path) is not a readable HEIF file: \(error.message)", exitCode: .dataError)
        }
        return contents.items.map { item in
            var words = ["\(item.id)", item.type]
            for property in item.properties {
                if case .size(let width, let height) = property { words.append("\(width)x\(height)") }
                if case .rotation(let turns) = property { words.append("turned \(turns * 90)° anticlockwise") }
            }
            if item.id == contents.primaryItemID { words.append("primary") }
            if item.id == contents.thumbnail?.id { words.append("thumbnail") }
            if item.isHidden, item.type == "hvc1" { words.append("tile") }
            return words.joined(separator: " ")
        }.joined(separator: "; ")
    }

    /// Finishes the photos still processing; prints each final photo's path (or JSON object).
    /// A photo that could not be finished keeps its proxy and is named; exit 65 then.
    private func process(_ folder: String) async throws(CommandFailure) {
        var failed: [Int64] = []
        for await event in PhotoFinishing.finishAll(in: folder) {
            switch event {
            case .processed(let photo):
                try printsJSON ? Console.json(photo.record) : Console.result(photo.path)
            case .processingFailed(let id, let reason):
                Console.note("photo \(id) could not be finished as HEIC (\(reason)); its JPEG proxy is kept as the photo")
                failed.append(id)
            default:
                continue
            }
        }
        guard failed.isEmpty else {
            throw CommandFailure("\(failed.count) photo\(failed.count == 1 ? "" : "s") could not be finished; each keeps its JPEG proxy",
                                 exitCode: .dataError)
        }
    }

    static func table(_ photos: [LibraryPhoto]) -> String {
        // The codec and camera are the library's words, which another node may have written: each
        // cell is shown on the terminal as one line, as every line camctl prints is (Console).
        let rows = [["ID", "TAKEN", "SIZE", "CODEC", "CAMERA"]] + photos.map {
            ["\($0.id)", WallClockTime($0.capturedAt).formatted("yyyy-MM-dd HH:mm:ss"), "\($0.width)x\($0.height)", $0.codec.terminalSafe(limit: 16),
             $0.device.terminalSafe(limit: 200)]
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<4).map { row[$0].padded(to: widths[$0]) }.joined(separator: "  ") + "  " + row[4]
        }.joined(separator: "\n")
    }
}
