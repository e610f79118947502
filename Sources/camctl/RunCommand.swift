import CameraKit
import CameraOperator
import FileSystem
import Formatting
import FoundationEssentials
import Glibc
import GStreamer
import PipelineScript

/// `camctl run FILE`: sets up the session a description file asks for and runs its steps.
struct RunCommand: Subcommand {
    static let name = "run"
    static let synopsis = """
        camctl run      FILE [--device D] [--set NAME=VALUE …] [--dry-run] [--json] [--library DIR | --no-library]
                        [--allow-raw-io] [--review-timeout SECONDS] [--burst-memory MIB] [--delete-from-card]
        """
    static let summary = "run a pipeline description file (pipelines/README.md)"
    static let help = """
        Reads FILE (its language is in pipelines/README.md), sets up the camera, preview, filters and
        outputs it names, and runs its steps: countdowns, captures, bursts, waits, repeat blocks,
        time-lapses, camera switches, preview pauses, composed strips or grids, reviews, printouts, a DSLR's
        own settings (set iso 800), messages. --delete-from-card deletes a DSLR's photos from its card once in the library. --set
        changes a param of the file; --device overrides its camera. --dry-run checks the file and
        prints the pipeline it would build (gst-launch syntax) and its steps, without opening a
        camera. Mistakes are reported as FILE:LINE:COLUMN with exit code 65.
        A description file is a program: its raw source and filter fragments are GStreamer elements.
        Fragments with elements that read or write files or the network (filesrc, filesink,
        souphttpsrc, udpsink, …) are refused unless --allow-raw-io is given. A review step shows the
        photos since the last review on the preview to keep (Enter, Space or k) or discard (Backspace,
        Delete or x; the lines keep and discard on standard input when it is not a terminal); one not
        answered keeps them after its own timeout, else --review-timeout seconds (\(String(printf: "%g", ReviewPlan.defaultTimeout)); 0: for ever).
        """ + "\n" + KeyTable.help + "\n" + ImageOptions.help
    static let options: [ParsedArguments.Option] = [
        .init(name: "--device", value: "D", short: "-d"), .init(name: "--set", value: "NAME=VALUE"),
        .init(name: "--dry-run", value: nil), .init(name: "--json", value: nil),
        .init(name: "--library", value: "DIR"), .init(name: "--no-library", value: nil), .init(name: "--verbose", value: nil),
        .init(name: "--allow-raw-io", value: nil), .init(name: "--review-timeout", value: "SECONDS"),
        SessionOptions.burstMemoryOption, .init(name: "--delete-from-card", value: nil),
    ] + ImageOptions.options

    let file: String
    let device: String?
    let overrides: [String: String]
    let isDryRun: Bool
    /// How long a review without a timeout of its own waits; `nil`: for ever.
    let reviewTimeout: Double?
    let arguments: ParsedArguments

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals(["FILE"])
        try arguments.refuseTogether("--library", "--no-library")
        self.arguments = arguments
        file = arguments.positionals[0]
        device = arguments.string("--device")
        isDryRun = arguments.flag("--dry-run")
        reviewTimeout = try ReviewOptions.timeout(arguments)
        var overrides: [String: String] = [:]
        for assignment in arguments.strings("--set") {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw CommandFailure("--set \(assignment) is not NAME=VALUE", exitCode: .usage)
            }
            overrides[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        self.overrides = overrides
    }

    func run() async throws(CommandFailure) {
        let parsed = try parse()
        let script = parsed.script
        try checkFragments(parsed.fragments)
        try checkReaches(script)
        let configuration = try await configuration(for: script)
        if isDryRun {
            let session = CaptureSession(configuration: configuration)
            let description: String
            do {
                description = try await session.pipelineDescription()
            } catch {
                throw CommandFailure(error)
            }
            try Console.result(description)
            try Console.result("")
            // The file may be untrusted: what it says is shown without escape sequences or reordering marks.
            for line in script.stepListing { try Console.result(line.terminalSafe) }
            return
        }
        let controls = ControlInbox.shared.claimed()
        let saving = try await PhotoSaving.opened(library: library(for: script), output: script.session.output,
                                                  printsJSON: arguments.flag("--json"), photoCount: nil)
        let session = CaptureSession(configuration: configuration)
        controls.listenToKeys(of: session)
        // The operator tells what happens to the camera from its start on.
        let runner = ScriptRunner(session: session, camera: configuration.device, saving: saving, controls: controls,
                                  settings: photoSettings(script), printsJSON: arguments.flag("--json"),
                                  reviewTimeout: reviewTimeout)
        do {
            if configuration.preview != nil { Console.progress("starting \(configuration.device.name)") }
            try await session.start()
        } catch {
            throw CommandFailure(error)
        }
        if script.reviews { controls.listenToReviewLines() }
        do {
            try await runner.run(script)
        } catch {
            await session.stop()
            // Every event told so far is printed, and photos taken are finished, before the failure.
            try? await runner.operating.finishProcessing()
            throw error
        }
        await session.stop()
        try await runner.operating.finishProcessing()
    }

    /// The largest description file read.
    static let maximumFileSize = 16 * 1_048_576

    /// The file, parsed; every mistake is printed as FILE:LINE:COLUMN.
    private func parse() throws(CommandFailure) -> Parser.Result {
        let data: [UInt8]
        do {
            data = try RegularFile.contents(of: file, limit: Self.maximumFileSize)
        } catch {
            throw CommandFailure("the description file \(file) cannot be read: \(error.reason)", exitCode: .usage)
        }
        let result: Parser.Result
        do {
            result = try Parser.parse(data, overrides: overrides, image: ImageOptions.vocabulary)
        } catch {
            try report(error.errors)
        }
        if let unused = overrides.keys.sorted().first(where: { result.script.parameters[$0] == nil }) {
            let known = result.script.parameters.keys.sorted()
            throw CommandFailure("--set \(unused): \(file) has no param \(unused); "
                + (known.isEmpty ? "it has no params" : "its params are " + known.joined(separator: ", ")), exitCode: .usage)
        }
        return result
    }

    /// How many mistakes are printed one by one; the rest are counted.
    static let listedMistakes = 20

    /// Prints the mistakes on their own lines (the first ``listedMistakes``) and ends with exit code 65.
    private func report(_ errors: [ScriptError]) throws(CommandFailure) -> Never {
        var lines = errors.prefix(Self.listedMistakes).map { $0.formatted(file: file, remedyWords: \.commandLineWords) }
        if errors.count > Self.listedMistakes { lines.append("\(file): and \(errors.count - Self.listedMistakes) more mistakes") }
        Console.standardError(lines.joined(separator: "\n") + "\n")
        throw CommandFailure("\(file) has \(errors.count) mistake\(errors.count == 1 ? "" : "s"); nothing was run", exitCode: .dataError)
    }

    /// Refuses, without --allow-raw-io, what a description file would read or send outside its
    /// pipeline besides its raw fragments: a drawing laid over the picture (`overlay FILE`, which
    /// a `printout` could then send anywhere) and a printer named by its address (`printout
    /// printer ipp://…`). A CUPS queue's name is this machine's own and needs nothing.
    private func checkReaches(_ script: Script) throws(CommandFailure) {
        guard !arguments.flag("--allow-raw-io") else { return }
        func reaches(_ steps: [Script.Step]) -> String? {
            for step in steps {
                switch step {
                case .image(.overlay(let path?)): return "overlay \"\(path)\" reads a file"
                case .printout(let options) where options.printer?.contains("://") == true:
                    return "printout printer \"\(options.printer ?? "")\" sends to the network"
                case .repeatBlock(_, let inner): if let found = reaches(inner) { return found }
                default: continue
                }
            }
            return nil
        }
        let drawing = script.session.image.lazy.compactMap { change -> String? in
            if case .overlay(let path?) = change { "overlay \"\(path)\" reads a file" } else { nil }
        }.first
        guard let reach = drawing ?? reaches(script.steps) else { return }
        throw CommandFailure("\(file): \(reach); a description file may do so only when run with --allow-raw-io", exitCode: .dataError)
    }

    /// Lets GStreamer read each raw fragment, so a bad one is reported at its place before a camera
    /// opens: one it cannot make, a filter that cannot pass video on, or (without --allow-raw-io)
    /// one with an element that reads or writes files or the network.
    private func checkFragments(_ fragments: [Parser.Fragment]) throws(CommandFailure) {
        var errors: [ScriptError] = []
        for fragment in fragments {
            func fail(_ message: String) { errors.append(ScriptError(line: fragment.line, column: fragment.column, message)) }
            let bin: Bin
            do {
                bin = try Bin(fragment: fragment.text)
            } catch {
                fail("GStreamer cannot read this fragment: \(error.message)")
                continue
            }
            if !arguments.flag("--allow-raw-io"), let element = RawInputOutput.firstElement(in: bin) {
                fail("\(element) reads or writes files or the network; a description file may use it only when run with --allow-raw-io")
                continue
            }
            guard !fragment.isSource else { continue }
            do {
                // As the session places a filter: after the camera's raw frames, before a conversion.
                _ = try Pipeline(describing: "identity ! \(fragment.text) ! videoconvert ! fakesink")
            } catch {
                fail("this filter cannot pass video frames on: \(error.message)")
            }
        }
        if !errors.isEmpty { try report(errors) }
    }

    private func configuration(for script: Script) async throws(CommandFailure) -> SessionConfiguration {
        let camera: CaptureDevice
        do {
            if device == nil, let source = script.session.source {
                camera = .custom(source)
            } else {
                let named = device ?? script.session.camera
                camera = try await DeviceDiscovery.lane.run { () throws(CaptureError) in try DeviceDiscovery.device(named: named) }
            }
        } catch {
            throw CommandFailure(error)
        }
        var configuration = SessionConfiguration(camera: camera)
        do {
            configuration.format = try FormatRequest(parsing: script.session.resolution ?? "high")
        } catch {
            throw CommandFailure("\(file): resolution: \(error.commandLineSentence)", exitCode: .dataError)
        }
        if let sink = script.session.preview {
            // A dry run only checks and prints: it shows nothing, so it needs no display.
            try SessionOptions.checkSink(sink, from: "\(file): preview", showing: !isDryRun)
            configuration.preview = PreviewConfiguration(sink: sink, showsText: script.steps.contains(where: Self.countsDown) || script.reviews,
                                                         showsPictures: script.reviews, fillsScreen: script.session.previewFillsScreen)
            do {
                try configuration.preview?.validate()
            } catch {
                throw CommandFailure("\(file): preview: \(error.message)", exitCode: .dataError)
            }
        }
        configuration.filters = script.session.filters
        var image = ImageSettings()
        for change in script.session.image { image = try image.applying(change) }
        configuration.image = try ImageOptions.settings(from: arguments, startingFrom: image)  // the command line has the last word
        configuration.resumesAutomatically = true
        configuration.movies = script.records
        if let budget = try SessionOptions.burstMemory(arguments) { configuration.burstMemoryBudget = budget }
        configuration.deletesFromCameraCard = arguments.flag("--delete-from-card")
        return configuration
    }

    private static func countsDown(_ step: Script.Step) -> Bool {
        switch step {
        case .countdown: true
        case .repeatBlock(_, let steps): steps.contains(where: countsDown)
        default: false
        }
    }

    /// The command line's --library or --no-library, else the file's library setting.
    private func library(for script: Script) -> PhotoSaving.Library {
        if arguments.flag("--library") || arguments.flag("--no-library") { return PhotoSaving.library(arguments) }
        switch script.session.library {
        case .standard: return .standard
        case .folder(let folder): return .folder(folder)
        case .none: return .none
        }
    }

    private func photoSettings(_ script: Script) -> PhotoSettings {
        var settings = PhotoSettings()
        if script.session.codec == "hevc" { settings.codec = .hevc }
        settings.defersHEVCProcessing = true  // when the library is the photos' one destination
        if let quality = script.session.quality { settings.quality = quality }
        // Thumbnails as wide as a composed picture's cells, so compose works from them.
        settings.thumbnailMaximumSide = ShotComposition.cellWidth
        return settings
    }
}
