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
    }

    /// What kind of failure this is.
    public let code: Code
    /// One sentence saying what happened and what to do.
    public let message: String
    /// GStreamer's debug text, for `--verbose` output.
    public let debugInfo: String?

    /// Makes an error.
    public init(_ code: Code, _ message: String, debugInfo: String? = nil) {
        self.code = code
        self.message = message
        self.debugInfo = debugInfo
    }

    public var description: String { message }
}
