import CameraKit
import FoundationEssentials
import Glibc
import GStreamer
import PipelineScript

/// The options that choose and run a camera, shared by preview, capture and booth.
struct SessionOptions {
    static let options: [ParsedArguments.Option] = [
        .init(name: "--device", value: "D", short: "-d"),
        .init(name: "--resolution", value: "WxH[@FPS]"),
        .init(name: "--wait-for-device", value: nil),
        .init(name: "--print-pipeline", value: nil),
        .init(name: "--verbose", value: nil),
        .init(name: "--control", value: "KEY=VALUE"),
        .init(name: "--delete-from-card", value: nil),
        burstMemoryOption,
    ] + ImageOptions.options

    /// `--burst-memory MIB`: what a burst may hold in frames and photos not yet saved.
    static let burstMemoryOption = ParsedArguments.Option(name: "--burst-memory", value: "MIB")

    var device: String?
    var format = FormatRequest.high
    var waitsForDevice = false
    var printsPipeline = false
    var image = ImageSettings()
    /// V4L2 controls to set once the camera runs (`--control KEY=VALUE`, repeatable).
    var controls: [(key: String, value: Int)] = []
    /// The burst memory budget in bytes, when given.
    var burstMemory: Int?
    /// `--delete-from-card`: a DSLR's photos deleted from its card once kept in the library.
    var deletesFromCard = false
    /// `--key sample`: the green screen keys the colour sampled from the picture's edges once the camera runs.
    var samplesKey = false

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        device = arguments.string("--device")
        if let text = arguments.string("--resolution") {
            do {
                format = try FormatRequest(parsing: text)
            } catch {
                throw CommandFailure("--resolution: \(error.commandLineSentence)", exitCode: .usage)
            }
        }
        burstMemory = try Self.burstMemory(arguments)
        waitsForDevice = arguments.flag("--wait-for-device")
        printsPipeline = arguments.flag("--print-pipeline")
        image = try ImageOptions.settings(from: arguments)
        samplesKey = ImageOptions.samplesKey(arguments)
        deletesFromCard = arguments.flag("--delete-from-card")
        for text in arguments.strings("--control") {
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Int(parts[1]) else {
                throw CommandFailure("--control \(text) is not KEY=VALUE with a whole number, such as exposure_time_absolute=300",
                                     exitCode: .usage)
            }
            controls.append((parts[0], value))
        }
    }

    /// The camera named by `--device` (or the first one); with `--wait-for-device`, waits until it
    /// is attached, looking again whenever a camera is plugged in, until interrupted.
    func camera(controls: ControlInbox) async throws(CommandFailure) -> CaptureDevice {
        var announced = false
        let watch = waitsForDevice ? try? CameraWatch() : nil
        defer { watch?.stop() }
        while true {
            do {
                let device = self.device
                return try await DeviceDiscovery.lane.run { () throws(CaptureError) in try DeviceDiscovery.device(named: device) }
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
        if let burstMemory { configuration.burstMemoryBudget = burstMemory }
        configuration.deletesFromCameraCard = deletesFromCard
        return configuration
    }

    /// `--burst-memory MIB` in bytes: from 16 MiB to 64 GiB.
    static func burstMemory(_ arguments: ParsedArguments) throws(CommandFailure) -> Int? {
        guard let text = arguments.string("--burst-memory") else { return nil }
        guard let mebibytes = Int(text), (16...65536).contains(mebibytes) else {
            throw CommandFailure("--burst-memory \(text) is not a number of MiB from 16 to 65536 (32 by default)", exitCode: .usage)
        }
        return mebibytes * 1_048_576
    }

    /// Starts `session`, printing its pipeline first when asked (on standard error, so standard
    /// output stays for results).
    func start(_ session: CaptureSession) async throws(CommandFailure) {
        do {
            if printsPipeline {
                Console.standardError(try await session.pipelineDescription() + "\n")
            }
            try await session.start()
        } catch {
            throw CommandFailure(error)
        }
        if samplesKey {
            do {
                try await sampleKey(of: session)
            } catch {
                await session.stop()
                throw CommandFailure(error)
            }
        }
        guard !controls.isEmpty else { return }
        let camera = await session.configuration.device
        guard let path = camera.controlsPath else {
            await session.stop()
            throw CommandFailure("\(camera.name) has no V4L2 controls, so --control cannot set \(controls[0].key); "
                + "camctl devices --controls lists the cameras that have them", exitCode: .usage)
        }
        do {
            let device = try CameraControls(path: path)
            for (key, value) in controls { try device.setValue(value, of: key) }
        } catch {
            await session.stop()
            throw CommandFailure(error)
        }
    }
}

extension SessionOptions {
    /// Keys the colour of the screen as the camera sees it, sampled now, and says which it is.
    private func sampleKey(of session: CaptureSession) async throws(CaptureError) {
        let colour = try await session.sampleScreenColor()
        var image = await session.configuration.image
        image.greenScreen?.key = .color(colour)
        try await session.changeImage(to: image)
        Console.note("the screen's colour, sampled: \(colour.hex) (give --key \(colour.hex) to key it again without sampling)")
    }

    /// Refuses a preview sink GStreamer cannot make, and the automatic sink where there is no
    /// display to open a window on when the preview will be `showing` (a dry run shows nothing),
    /// before any camera starts. `source` names where the sink was
    /// given (`--sink`, or a description file's preview setting).
    static func checkSink(_ sink: String, from source: String, showing: Bool = true) throws(CommandFailure) {
        do {
            _ = try Bin(fragment: sink)
        } catch where error.kind == .missingElement {
            let name = sink.split(separator: " ").first.map(String.init) ?? sink
            let sinks = ["autovideosink", "ximagesink", "xvimagesink", "kmssink", "fakesink"]
            let suggestion = Spelling.closest(to: name, among: sinks).map { "did you mean \($0)? or " } ?? ""
            throw CommandFailure("there is no video sink called \"\(name)\"; \(suggestion)use autovideosink, ximagesink, xvimagesink, kmssink or fakesink",
                                 exitCode: .usage)
        } catch {
            throw CommandFailure("\(source) \"\(sink)\" is not a sink GStreamer can make (\(error.message)); "
                + "use autovideosink, ximagesink, xvimagesink, kmssink or fakesink", exitCode: .usage)
        }
        let environment = ProcessInfo.processInfo.environment
        let hasDisplay = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard showing else { return }
        switch sink.split(separator: " ").first {
        case "autovideosink" where !hasDisplay:
            throw CommandFailure("there is no display to show the preview on (DISPLAY and WAYLAND_DISPLAY are not set); "
                + "use --sink fakesink for no window, --sink kmssink on a console, or run camctl in a desktop session", exitCode: .software)
        case "waylandsink" where (environment["WAYLAND_DISPLAY"] ?? "").isEmpty:
            // Checked here: libwayland would print its own complaint before GStreamer's failure.
            throw CommandFailure("waylandsink needs a Wayland session, and WAYLAND_DISPLAY is not set; use ximagesink on X, "
                + "kmssink on a console, or fakesink for no window", exitCode: .software)
        case "kmssink" where !FileManager.default.fileExists(atPath: "/dev/dri"):
            throw CommandFailure("kmssink draws on a graphics card's screen, and this machine has none (no /dev/dri); "
                + "use ximagesink or waylandsink in a desktop session, or fakesink for no window", exitCode: .software)
        default:
            return
        }
    }
}
