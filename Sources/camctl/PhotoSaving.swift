import Blocking
import CameraKit
import CameraOperator
import FileSystem
import Formatting
import FoundationEssentials
import Glibc
import OperatorWire
import PhotoLibrary

/// The command line's side of photo delivery: `--library`, `--no-library`, `--output` (a path, a
/// pattern or `-`), `--latest`, `--metadata`, `--exec` and `--json` chosen into a
/// ``PhotoDelivery`` for a ``SessionOperator``, and each delivered photo printed (its path, or its
/// JSON object).
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

    let delivery: PhotoDelivery
    let printsJSON: Bool

    /// The photo library, unless `--no-library`.
    var library: PhotoLibrary? { delivery.library }

    /// Which photo library, if any.
    enum Library: Equatable, Sendable {
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
        self.printsJSON = printsJSON
        delivery = try Self.delivery(library: library, output: output, latest: latest, hook: hook, metadata: metadata,
                                     photoCount: photoCount)
    }

    /// Where libraries are opened: their SQLite and their mending block.
    private static let lane = BlockingLane(label: "library-opening")

    /// Runs a command's set-up that opens a library, reads or writes its files, on the lane where
    /// libraries are opened, and hands what it made over whole to the command's `async` code.
    static func onLane<T>(_ work: sending @escaping () throws(CommandFailure) -> sending T) async throws(CommandFailure) -> sending T {
        try await lane.make(work)
    }

    /// The saving `arguments` ask for (as ``init(_:photoCount:)``), its library opened and mended
    /// on a lane of its own, off Swift's shared threads, for a command's `async` code.
    static func opened(_ arguments: ParsedArguments, photoCount: Int?) async throws(CommandFailure) -> sending PhotoSaving {
        try await lane.make { () throws(CommandFailure) -> sending PhotoSaving in try PhotoSaving(arguments, photoCount: photoCount) }
    }

    /// The saving into `library` (as ``init(library:output:latest:hook:metadata:printsJSON:photoCount:)``),
    /// its library opened on a lane of its own, for a command's `async` code.
    static func opened(library: Library, output: String?, printsJSON: Bool, photoCount: Int?) async throws(CommandFailure) -> sending PhotoSaving {
        try await lane.make { () throws(CommandFailure) -> sending PhotoSaving in
            try PhotoSaving(library: library, output: output, printsJSON: printsJSON, photoCount: photoCount)
        }
    }

    /// Opens the library and makes the delivery the options ask for, checking every destination.
    static func delivery(library: Library, output: String?, latest: String? = nil, hook: String? = nil, metadata: String? = nil,
                         photoCount: Int?) throws(CommandFailure) -> PhotoDelivery {
        let opened = try openLibrary(library)
        do {
            return try PhotoDelivery(library: opened, copy: Self.target(output), latestLink: latest,
                                     sidecar: Self.target(metadata), hook: hook.map(Hook.init(command:)), pictureCount: photoCount)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// The library `library` names, opened (saying what was repaired); `nil` for none.
    static func openLibrary(_ library: Library) throws(CommandFailure) -> PhotoLibrary? {
        switch library {
        case .none: nil
        case .standard: try openLibrary(nil)
        case .folder(let folder): try openLibrary(folder)
        }
    }

    /// `-` for standard output, else a path or pattern.
    static func target(_ option: String?) -> PhotoDelivery.Target? {
        option.map { $0 == "-" ? .standardOutput : .pattern(OutputPattern($0)) }
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
        for movie in repaired.recoveredMovies {
            Console.note("a recording was cut short (its camctl ended); the movie is kept up to its last whole second: \(movie.path) ("
                + String(printf: "%.1f s)", movie.duration ?? 0))
        }
        if !repaired.skipped.isEmpty {
            let named = repaired.skipped.prefix(5).joined(separator: ", ") + (repaired.skipped.count > 5 ? " and \(repaired.skipped.count - 5) more" : "")
            Console.note("the library has \(repaired.skipped.count) file(s) named as photos that are not whole pictures, left as they are and not listed: \(named)")
        }
        return library
    }

    /// Prints a delivered picture: its `photo` event, the line `/api/events` and a fleet node send
    /// for it, or its path unless standard output carries the picture or its sidecar.
    static func report(_ delivered: Delivered, printsJSON: Bool, copy: PhotoDelivery.Target?,
                       sidecar: PhotoDelivery.Target?) throws(CommandFailure) {
        if printsJSON {
            try Console.json(EventRecord.photo(delivered.record))
        } else if copy != .standardOutput, sidecar != .standardOutput {
            try Console.result(delivered.path)
        }
    }

    /// Writes a result file as ``OutputFile`` does: a regular file is replaced, a FIFO or
    /// device is written into, a folder or a link to nothing is refused. Written on the lane where
    /// libraries are opened: the write is made durable.
    static func write(_ bytes: [UInt8], to path: String) async throws(CommandFailure) {
        try await lane.run { () throws(CommandFailure) in
            do throws(DurableFile.WriteError) {
                try OutputFile.write(bytes, to: path)
            } catch {
                throw CommandFailure(LibraryError(error))
            }
        }
    }

    static func checkWritable(_ path: String) throws(CommandFailure) {
        do {
            try PhotoLibrary.checkDestination(path)
            try OutputFile.check(path)
        } catch {
            throw CommandFailure(LibraryError(error))
        }
    }
}
