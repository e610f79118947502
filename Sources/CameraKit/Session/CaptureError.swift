/// A failure of the capture model, told in one sentence that says what happened and what to do.
public struct CaptureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; the command-line tool maps kinds to exit codes.
    public enum Code: Sendable, Equatable {
        /// No camera is attached.
        case noCamera
        /// The named camera does not exist.
        case deviceNotFound
        /// The camera exists but this user may not open it.
        case permissionDenied
        /// Another program holds the camera.
        case deviceBusy
        /// A file used as a camera is not a picture or video GStreamer can read.
        case unreadableFile
        /// The camera offers no format that meets the request.
        case formatUnavailable
        /// The preview sink cannot open (no display, no XVideo, unknown element).
        case sinkUnavailable
        /// A setting is out of range or contradicts the camera (flash on a camera without one).
        case invalidSetting
        /// The session is not running, so it cannot capture.
        case notRunning
        /// The camera went away or stopped sending frames.
        case interrupted
        /// Waiting for the camera or an encoder took too long.
        case timeout
        /// The pipeline failed in a way the user cannot fix.
        case pipeline
        /// A movie's file could not be written (the disk is full, its folder went away); what was
        /// written up to its last whole fragment is kept.
        case movieNotWritten
    }

    /// What the person can do about it, where that is a choice a front end offers in its own
    /// words (an option, a field, a menu); the message says what to do in every other case.
    public enum Remedy: Sendable, Equatable, CustomStringConvertible {
        /// Show the preview with one of these video sinks instead.
        case useSink([String])
        /// Run where a display is, or without a preview window.
        case needsDisplay
        /// Ask for one of the formats the camera offers (these; the message lists them too).
        case chooseOfferedFormat([String])
        /// Use the built-in test camera.
        case useTestCamera
        /// Look at the list of cameras attached.
        case listCameras
        /// Look at the formats the camera offers.
        case listFormats
        /// Lay the drawing over the picture at a smaller scale.
        case shrinkDrawing
        /// Record without sound; or with another microphone; or with a test tone.
        case recordWithoutSound, recordWithoutSoundOrAnotherMicrophone, recordWithoutSoundOrTestTone

        /// The remedy in the capture model's words.
        public var description: String {
            switch self {
            case .useSink(let sinks): "show the preview with " + sinks.joined(separator: " or ")
            case .needsDisplay: "run in a desktop session, or show the preview with fakesink"
            case .chooseOfferedFormat: "ask for one of those"
            case .useTestCamera: "the built-in test camera is always there"
            case .listCameras: "the list of cameras shows what is attached"
            case .listFormats: "the list of cameras shows what each offers"
            case .shrinkDrawing: "lay the drawing smaller"
            case .recordWithoutSound: "record without sound"
            case .recordWithoutSoundOrAnotherMicrophone: "record without sound, or name another microphone"
            case .recordWithoutSoundOrTestTone: "record without sound, or with a test tone"
            }
        }
    }

    /// What kind of failure this is.
    public let code: Code
    /// What happened, and what to do where ``remedy`` does not say.
    public let message: String
    /// What to do, as a choice a front end words in its own terms.
    public let remedy: Remedy?
    /// GStreamer's debug text, for a verbose report.
    public let debugInfo: String?

    /// Makes an error.
    public init(_ code: Code, _ message: String, remedy: Remedy? = nil, debugInfo: String? = nil) {
        self.code = code
        self.message = message
        self.remedy = remedy
        self.debugInfo = debugInfo
    }

    /// One sentence: what happened and what to do.
    public var description: String { remedy.map { "\(message); \($0)" } ?? message }
}
