import CameraKit
import CameraOperator
import FileSystem
import Foundation
import PhotoLibrary

/// The command line's side of photo delivery: `--library`, `--no-library`, `--output` (a path, a
/// pattern or `-`), `--latest`, `--metadata`, `--exec` and `--json` chosen into a
/// ``PhotoDelivery``, and each delivered photo printed (its path, or its JSON object).
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
        self.printsJSON = printsJSON
        delivery = try Self.delivery(library: library, output: output, latest: latest, hook: hook, metadata: metadata,
                                     photoCount: photoCount)
    }

    /// Opens the library and makes the delivery the options ask for, checking every destination.
    static func delivery(library: Library, output: String?, latest: String? = nil, hook: String? = nil, metadata: String? = nil,
                         photoCount: Int?) throws(CommandFailure) -> PhotoDelivery {
        let opened: PhotoLibrary? = switch library {
        case .none: nil
        case .standard: try Self.openLibrary(nil)
        case .folder(let folder): try Self.openLibrary(folder)
        }
        do {
            return try PhotoDelivery(library: opened, copy: Self.target(output), latestLink: latest,
                                     sidecar: Self.target(metadata), hook: hook.map(Hook.init(command:)), pictureCount: photoCount)
        } catch {
            throw CommandFailure(error)
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
        if !repaired.skipped.isEmpty {
            let named = repaired.skipped.prefix(5).joined(separator: ", ") + (repaired.skipped.count > 5 ? " and \(repaired.skipped.count - 5) more" : "")
            Console.note("the library has \(repaired.skipped.count) file(s) named as photos that are not whole pictures, left as they are and not listed: \(named)")
        }
        return library
    }

    /// Delivers photo number `number` (from 1), prints it, and runs the hook; returns `nil` when
    /// there is nowhere to save it (a booth shot with `--no-library`).
    @discardableResult
    func save(_ photo: Photo, number: Int, device: CaptureDevice, albums: [String] = []) async throws(CommandFailure) -> Delivered? {
        try await save(DeliveryItem(photo, albums: albums), number: number, device: device, through: delivery)
    }

    /// Saves a composed picture into the library and to `copyTo`, and prints it.
    func saveComposition(_ data: [UInt8], width: Int, height: Int, takenAt: Date, device: CaptureDevice,
                         copyTo: String?) async throws(CommandFailure) {
        let item = DeliveryItem(composed: data, width: width, height: height, capturedAt: takenAt, albums: ["booth"])
        let composition: PhotoDelivery
        do {
            composition = try PhotoDelivery(library: delivery.library, copy: Self.target(copyTo), pictureCount: 1)
        } catch {
            throw CommandFailure(error)
        }
        guard try await save(item, number: 1, device: device, through: composition) != nil else {
            throw CommandFailure("the composed picture has nowhere to go (no library, no output path); keep the library, or name an output", exitCode: .usage)
        }
    }

    private func save(_ item: DeliveryItem, number: Int, device: CaptureDevice, through delivery: PhotoDelivery) async throws(CommandFailure) -> Delivered? {
        let delivered: Delivered
        do {
            guard let done = try delivery.deliver(item, number: number, device: device) else { return nil }
            delivered = done
        } catch {
            throw CommandFailure(error)
        }
        try Self.report(delivered, printsJSON: printsJSON, through: delivery)
        let ending: Hook.Ending?
        do {
            ending = try await delivery.runHook(for: delivered)
        } catch {
            throw CommandFailure(error)
        }
        switch (ending, delivery.hook?.command) {
        case (.exited(let status)?, let command?) where status != 0:
            Console.note("--exec \"\(command)\" ended with status \(status) for \(delivered.path)")
        case (.signalled(let signal)?, let command?):
            Console.note("--exec \"\(command)\" was ended by signal \(signal) (\(String(cString: strsignal(signal)))) for \(delivered.path)")
        default:
            break
        }
        return delivered
    }

    /// Prints a delivered picture: its JSON object, or its path unless standard output carries the
    /// picture or its sidecar.
    static func report(_ delivered: Delivered, printsJSON: Bool, through delivery: PhotoDelivery?) throws(CommandFailure) {
        if printsJSON {
            try Console.json(delivered.record)
        } else if delivery?.copy != .standardOutput, delivery?.sidecar != .standardOutput {
            try Console.result(delivered.path)
        }
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
