/// A parsed pipeline description file: the session it sets up and the steps it runs.
public struct Script: Sendable, Equatable {
    /// How the session is set up, before any step runs.
    public struct Session: Sendable, Equatable {
        /// `camera NAME`: as the command line names cameras (`test`, `/dev/video0`, part of a name).
        public var camera: String?
        /// `resolution WxH[@FPS]` or a preset.
        public var resolution: String?
        /// `preview SINK` (an element or description), or `preview none`.
        public var preview: String?
        /// `preview SINK fullscreen`: the preview fills the screen.
        public var previewFillsScreen = false
        /// `codec jpeg|hevc [quality N]`.
        public var codec: String?
        public var quality: Int?
        /// `library DIR`, `library default` (`nil`), or `library none`.
        public var library: LibraryChoice = .standard
        /// `output PATTERN`: a copy of each photo (`%d`, `%t`).
        public var output: String?
        /// `source "…"`: a raw gst-launch fragment used as the camera.
        public var source: String?
        /// `filter "…"`: raw gst-launch fragments applied between the camera and every output, in order.
        public var filters: [String] = []
        /// Image words before the first step (`filter sepia`, `zoom 2`, …), in order.
        public var image: [ImageChange] = []

        public init() {}
    }

    public enum LibraryChoice: Sendable, Equatable {
        case standard
        case folder(String)
        case none
    }

    /// One thing the script does.
    public indirect enum Step: Sendable, Equatable {
        case countdown(seconds: Double)
        case capture(CaptureOptions)
        case burst(count: Int)
        case wait(seconds: Double)
        case repeatBlock(count: Int, steps: [Step])
        case timelapse(everySeconds: Double, count: Int)
        case switchCamera
        case pausePreview
        case resumePreview
        case compose(Layout)
        /// `review` or `review timeout SECONDS` (0: for ever): the photos (and composition) since the
        /// start or the last review are shown to keep or discard; `nil` timeout: the command line's.
        case review(timeout: Double?)
        case print(String)
        /// Print the picture last kept (a composition, else a photo) and wait until it is printed.
        case printout(PrintoutOptions)
        /// Record a movie for this many seconds (the run waits for it).
        case record(seconds: Double)
        /// Start recording a movie, kept at `stopRecording` or the run's end; steps go on meanwhile.
        case startRecording
        case stopRecording
        /// An image word after the first step: the running session's picture changes.
        case image(ImageChange)
        /// `set NAME VALUE`: one of a DSLR's own settings (ISO, aperture, …) set on the camera.
        case cameraSetting(name: String, value: String)
    }

    /// How `compose` lays out the shots: a 1x4 strip, a 2x2 grid, or a template file's slots.
    public enum Layout: Sendable, Equatable {
        case strip, grid
        case template(String)

        var text: String {
            switch self {
            case .strip: "strip"
            case .grid: "grid"
            case .template(let path): "template \"\(path)\""
            }
        }
    }

    /// Options of one `capture`.
    public struct CaptureOptions: Sendable, Equatable {
        public var codec: String?
        public var quality: Int?
        public var rotation: Int?
        public init(codec: String? = nil, quality: Int? = nil, rotation: Int? = nil) {
            self.codec = codec
            self.quality = quality
            self.rotation = rotation
        }
    }

    /// How `printout` prints: the picture last kept, on a printer (`nil`: CUPS's default), in
    /// copies, on a paper (`nil`: the printer's default), a strip twice to be cut in two.
    public struct PrintoutOptions: Sendable, Equatable {
        public var copies = 1
        public var media: String?
        public var printer: String?
        public var cutsStrips = false
        public init(copies: Int = 1, media: String? = nil, printer: String? = nil, cutsStrips: Bool = false) {
            (self.copies, self.media, self.printer, self.cutsStrips) = (copies, media, printer, cutsStrips)
        }
    }

    public var session = Session()
    public var steps: [Step] = []
    /// `param NAME = VALUE` defaults, after the caller's overrides.
    public var parameters: [String: String] = [:]

    public init() {}

    /// Whether a `review` step is among the steps, in blocks too.
    public var reviews: Bool {
        func contains(_ steps: [Step]) -> Bool {
            steps.contains { step in
                if case .repeatBlock(_, let inner) = step { return contains(inner) }
                if case .review = step { return true }
                return false
            }
        }
        return contains(steps)
    }

    /// Whether a `record` step is among the steps, in blocks too: the session then records movies.
    public var records: Bool {
        func contains(_ steps: [Step]) -> Bool {
            steps.contains { step in
                switch step {
                case .repeatBlock(_, let inner): contains(inner)
                case .record, .startRecording, .stopRecording: true
                default: false
                }
            }
        }
        return contains(steps)
    }

    /// The steps, one per line, indented inside blocks: a dry run's listing.
    public var stepListing: [String] {
        func lines(_ steps: [Step], indent: String) -> [String] {
            steps.flatMap { step -> [String] in
                switch step {
                case .repeatBlock(let count, let inner):
                    return ["\(indent)repeat \(count) {"] + lines(inner, indent: indent + "    ") + ["\(indent)}"]
                default:
                    return [indent + Self.describe(step)]
                }
            }
        }
        return lines(steps, indent: "")
    }

    static func describe(_ step: Step) -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        switch step {
        case .countdown(let seconds): return "countdown \(number(seconds))"
        case .capture(let options):
            var words = ["capture"]
            if let codec = options.codec { words.append(codec) }
            if let quality = options.quality { words += ["quality", String(quality)] }
            if let rotation = options.rotation { words += ["rotate", String(rotation)] }
            return words.joined(separator: " ")
        case .burst(let count): return "burst \(count)"
        case .wait(let seconds): return "wait \(number(seconds))"
        case .repeatBlock(let count, _): return "repeat \(count)"
        case .timelapse(let every, let count): return "timelapse every \(number(every)) for \(count)"
        case .switchCamera: return "switch camera"
        case .pausePreview: return "pause preview"
        case .resumePreview: return "resume preview"
        case .compose(let layout): return "compose \(layout.text)"
        case .review(let timeout): return "review" + (timeout.map { " timeout \(number($0))" } ?? "")
        case .print(let message): return "print \"\(message)\""
        case .printout(let options):
            return (["printout"] + (options.copies > 1 ? ["copies \(options.copies)"] : []) + (options.media.map { ["media \($0)"] } ?? [])
                + (options.printer.map { ["printer \($0)"] } ?? []) + (options.cutsStrips ? ["cut-strips"] : [])).joined(separator: " ")
        case .record(let seconds): return "record \(number(seconds))"
        case .startRecording: return "record start"
        case .stopRecording: return "record stop"
        case .image(let change): return change.text
        case .cameraSetting(let name, let value): return "set \(name) \"\(value)\""
        }
    }
}
