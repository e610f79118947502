import CameraKit
import CameraOperator
import PhotoLibrary
import PipelineScript

// What the lower layers' errors mean for the command line: each kind's documented exit code.

extension CommandFailure {
    /// The failure a camera error means, with its documented exit code.
    init(_ error: CaptureError) {
        let code: ExitCode = switch error.code {
        case .noCamera, .deviceNotFound, .deviceBusy, .formatUnavailable, .interrupted, .timeout: .unavailable
        case .permissionDenied: .noPermission
        case .unreadableFile: .dataError
        case .invalidSetting: .usage
        case .sinkUnavailable, .notRunning, .pipeline: .software
        case .movieNotWritten: .ioError
        }
        self.init(error.commandLineSentence, exitCode: code, details: error.debugInfo)
    }
}

extension CaptureError {
    /// The error in the command line's words: what happened, and the remedy as the options or
    /// commands that carry it out.
    var commandLineSentence: String {
        guard let remedy else { return message }
        let words = switch remedy {
        case .useSink(let sinks): "use " + sinks.map { "--sink \($0)" }.joined(separator: " or ")
        case .needsDisplay: "run camctl in a desktop session, or use --sink fakesink"
        case .chooseOfferedFormat: "choose one of those with --resolution"
        case .useTestCamera: "use --device test for the built-in test camera"
        case .listCameras: "camctl devices lists the cameras"
        case .listFormats: "camctl devices lists what it offers"
        case .shrinkDrawing: "use a smaller --scale"
        case .recordWithoutSound: "record with --audio none"
        case .recordWithoutSoundOrAnotherMicrophone: "record with --audio none, or name another microphone"
        case .recordWithoutSoundOrTestTone: "record with --audio none, or --audio test for a tone"
        }
        return "\(message); \(words)"
    }
}

extension ScriptError.Remedy {
    /// The remedy as the command that carries it out.
    var commandLineWords: String {
        switch self {
        case .listFilters: "camctl filters lists them"
        }
    }
}

extension CommandFailure {
    /// The failure a library or file error means, with its documented exit code.
    init(_ error: LibraryError) {
        let code: ExitCode = switch error.kind {
        case .diskFull, .ioError: .ioError
        case .permissionDenied: .noPermission
        case .cannotCreate: .cannotCreate
        case .notFound: .usage
        case .corrupt: .dataError
        }
        let remedy = switch error.remedy {
        case .listPhotos: "; camctl library list shows the ids"
        case nil: ""
        }
        self.init(error.message + remedy, exitCode: code)
    }
}

extension CommandFailure {
    /// The failure an operator's action met, with its documented exit code: its sentence, and
    /// its remedy in the command line's terms (its options).
    init(_ error: OperatorError) {
        switch error {
        case .capture(let failure): self.init(failure)
        case .delivery(let failure): self.init(failure)
        case .report(let failure as CommandFailure): self = failure
        case .report: self.init(error.sentence, exitCode: .ioError)
        case .cancelled: self.init(error.sentence, exitCode: .interrupted)
        default:
            switch error.remedy {
            case .takePhotosFirst?: self.init(error.message, exitCode: .dataError)
            case .keepALibrary?: self.init(error.sentence + "; movies are recorded into the library: leave out --no-library", exitCode: .usage)
            case .keepALibraryOrACopy?: self.init(error.sentence + "; keep the library, or name an output", exitCode: .usage)
            case .stopTheMovieFirst?, .startAMovieFirst?: self.init(error.message, exitCode: .usage)
            case .endOrWait?, .capture?, nil: self.init(error.message, exitCode: .unavailable)
            }
        }
    }
}

extension CommandFailure {
    /// A delivery failure in the command line's words: the options that chose each destination.
    init(_ error: DeliveryError) {
        func option(_ destination: DeliveryError.Destination) -> String {
            switch destination {
            case .copy: "--output"
            case .sidecar: "--metadata"
            case .latestLink: "--latest"
            }
        }
        switch error {
        case .library(let failure):
            self.init(failure)
        case .destination(.latestLink, let failure, _) where failure.refusal == nil:
            self.init("--latest \(failure.path) could not be made: \(failure.reason)", exitCode: .cannotCreate)
        case .destination(_, let failure, let keptAt):
            let base = CommandFailure(LibraryError(failure))
            self.init(base.message + (keptAt.map { "; the photo is in the library as \($0)" } ?? ""), exitCode: base.exitCode)
        case .sameNameForEveryPicture(let destination, let path):
            self.init("\(option(destination)) \(path) would be overwritten by each photo; put %d (a counter) or %t (the time) in the name",
                      exitCode: .usage)
        case .counterTooWide(let destination, let pattern, let counter):
            let widest = OutputPattern.maximumCounterWidth
            self.init("\(option(destination)) \(pattern): \(counter) pads the counter to more than \(widest) digits; use at most %0\(widest)d",
                      exitCode: .usage)
        case .bothOnStandardOutput:
            self.init("--output - and --metadata - cannot both use standard output", exitCode: .usage)
        case .standardOutputClosed(let keptAt):
            self.init("the photo could not be written to standard output: the reader went away"
                + (keptAt == nil ? "; it is not kept anywhere else" : "; it is in the library"), exitCode: .ioError)
        case .hookDidNotStart(_, let reason):
            self.init("--exec could not run: \(reason)", exitCode: .software)
        }
    }
}

extension CommandFailure {
    /// Ctrl-C or SIGTERM: the run stopped cleanly at the user's request.
    static let interrupted = CommandFailure("interrupted; the photos taken so far are saved", exitCode: .interrupted)
}
