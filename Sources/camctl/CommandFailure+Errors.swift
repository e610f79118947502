import CameraKit
import PhotoLibrary

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
        }
        self.init(error.message, exitCode: code, details: error.debugInfo)
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
        self.init(error.message, exitCode: code)
    }
}
