import CameraKit
import Foundation

/// The options that choose and run a camera, shared by preview, capture and booth.
struct SessionOptions {
    static let options: [ParsedArguments.Option] = [
        .init(name: "--device", value: "D", short: "-d"),
        .init(name: "--resolution", value: "WxH[@FPS]"),
        .init(name: "--wait-for-device", value: nil),
        .init(name: "--print-pipeline", value: nil),
        .init(name: "--verbose", value: nil),
    ] + ImageOptions.options

    var device: String?
    var format = FormatRequest.high
    var waitsForDevice = false
    var printsPipeline = false
    var image = ImageSettings()

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        device = arguments.string("--device")
        if let text = arguments.string("--resolution") {
            do {
                format = try FormatRequest(parsing: text)
            } catch {
                throw CommandFailure("--resolution: \(error.message)", exitCode: .usage)
            }
        }
        waitsForDevice = arguments.flag("--wait-for-device")
        printsPipeline = arguments.flag("--print-pipeline")
        image = try ImageOptions.settings(from: arguments)
    }

    /// The camera named by `--device` (or the first one); with `--wait-for-device`, waits until it
    /// is attached, looking again whenever a camera is plugged in, until interrupted.
    func camera(controls: ControlInbox) async throws(CommandFailure) -> CaptureDevice {
        var announced = false
        let watch = waitsForDevice ? try? CameraWatch() : nil
        defer { watch?.stop() }
        while true {
            do {
                return try DeviceDiscovery.device(named: device)
            } catch where waitsForDevice && [.noCamera, .deviceNotFound].contains(error.code) {
                if !announced {
                    Console.progress("waiting for \(device.map { "the camera \"\($0)\"" } ?? "a camera") to be connected…")
                    announced = true
                }
                if await controls.next(within: .seconds(1)) == .interrupt {
                    throw CommandFailure("interrupted while waiting for a camera", exitCode: .interrupted)
                }
            } catch {
                throw CommandFailure(error)
            }
        }
    }

    /// A session configuration for `camera` at the asked format (see ``SessionConfiguration/init(camera:)``).
    func configuration(for camera: CaptureDevice) -> SessionConfiguration {
        var configuration = SessionConfiguration(camera: camera)
        configuration.format = format
        configuration.image = image
        return configuration
    }

    /// Starts `session`, printing its pipeline first when asked (on standard error, so standard
    /// output stays for results).
    func start(_ session: CaptureSession) async throws(CommandFailure) {
        do {
            if printsPipeline {
                FileHandle.standardError.write(Data((try await session.pipelineDescription() + "\n").utf8))
            }
            try await session.start()
        } catch {
            throw CommandFailure(error)
        }
    }
}

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
