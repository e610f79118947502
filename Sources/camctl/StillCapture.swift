import CameraKit
import Foundation

/// `camctl capture`: starts a session on the camera, takes one photo, and writes it atomically.
struct StillCapture {
    let options: CaptureOptions

    init(_ options: CaptureOptions) {
        self.options = options
    }

    func run() async throws(CommandFailure) {
        try AtomicFile.checkWritable(options.output)
        do {
            var configuration = SessionConfiguration()
            configuration.device = try DeviceDiscovery.device(named: options.device)
            configuration.format = options.format
            // The test camera and files need no time to settle their exposure.
            if case .system = configuration.device.kind {} else {
                configuration.framesDroppedAfterStart = 0
                configuration.exposureSettling = nil
            }
            let session = CaptureSession(configuration: configuration)
            if options.printsPipeline {
                FileHandle.standardError.write(Data((try await session.pipelineDescription() + "\n").utf8))
            }
            try await session.start()
            let photo: Photo
            do {
                photo = try await session.photoOutput.capture(options.settings)
            } catch {
                await session.stop()
                throw error
            }
            await session.stop()
            try AtomicFile.write(photo.fileData, to: options.output)
            print(options.output)
        } catch let error as CaptureError {
            throw CommandFailure(error.message, exitCode: ExitCode(error.code))
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("the photo could not be taken: \(error)", exitCode: .software)
        }
    }
}

extension ExitCode {
    /// The exit code documented for each kind of capture failure.
    init(_ code: CaptureError.Code) {
        self = switch code {
        case .noCamera, .deviceNotFound, .deviceBusy, .formatUnavailable, .interrupted, .timeout: .unavailable
        case .permissionDenied: .noPermission
        case .invalidSetting: .usage
        case .sinkUnavailable, .notRunning, .pipeline: .software
        }
    }
}
