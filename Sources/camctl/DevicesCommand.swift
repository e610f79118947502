import CameraKit
import FoundationEssentials
import Glibc
import GPhoto2
import GStreamer
import JSON

/// `camctl devices`: every camera, with what it offers; the test camera last.
struct DevicesCommand: Subcommand {
    static let name = "devices"
    static let synopsis = "camctl devices  [--controls] [--microphones] [--json]"
    static let summary = "list the cameras and the formats, sizes and frame rates they offer"
    static let help = """
        Lists every camera the system reports (V4L2, PipeWire, libcamera) with its device path, name,
        position and the formats, sizes and frame rates it offers, then the DSLR and mirrorless
        cameras libgphoto2 finds (gphoto2:PORT, with what each can do: photos, live view, settings);
        the built-in test camera is last.
        --json prints one JSON object per camera. --controls adds each V4L2 camera's controls
        (exposure, white balance, focus, …) with their ranges and values, as keys for --control.
        --microphones lists the microphones instead, by the names `record --audio` takes; the last,
        test, is a tone camctl makes.
        """
    static let options: [ParsedArguments.Option] = [
        .init(name: "--json", value: nil), .init(name: "--controls", value: nil), .init(name: "--verbose", value: nil),
        .init(name: "--microphones", value: nil),
    ]

    let printsJSON: Bool
    let listsControls: Bool
    let listsMicrophones: Bool

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals([])
        printsJSON = arguments.flag("--json")
        listsControls = arguments.flag("--controls")
        listsMicrophones = arguments.flag("--microphones")
    }

    func run() async throws(CommandFailure) {
        // Listing runs programs (pw-dump) and asks the cameras: on the discovery lane.
        try await DeviceDiscovery.lane.run { () throws(CommandFailure) in try list() }
    }

    /// Lists the cameras, or the microphones, blocking the caller's thread.
    private func list() throws(CommandFailure) {
        if listsMicrophones { return try listMicrophones() }
        let cameras: [CaptureDevice]
        do {
            cameras = try DeviceDiscovery.devices()
        } catch {
            throw CommandFailure(error)
        }
        // What each DSLR can do, as its driver says (found with the cameras, when there are any).
        let abilities = cameras.contains { if case .gphoto2 = $0.kind { true } else { false } } ? GPhotoCameras.connected() : []
        for camera in cameras {
            let ability = abilities.first { "gphoto2:\($0.port)" == camera.id }
            if printsJSON {
                var record = Self.record(camera, abilities: ability)
                if listsControls { record["controls"] = .array(Self.controlRecords(camera)) }
                try Console.json(record)
            } else {
                try Console.result(([Self.text(camera, abilities: ability)] + (listsControls ? Self.controlLines(camera) : [])).joined(separator: "\n"))
            }
        }
    }

    /// Each microphone's name, then the test tone's.
    private func listMicrophones() throws(CommandFailure) {
        let microphones = MovieAudio.microphones().map { ($0, false) } + [("test", true)]
        for (name, isTest) in microphones {
            if printsJSON {
                try Console.json(["name": .string(name), "test_tone": .bool(isTest)] as JSONValue)
            } else {
                try Console.result(isTest ? "test  (a 440 Hz tone camctl makes)" : name)
            }
        }
    }

    /// The camera as `devices --json` prints it; a DSLR with what its driver says it can do.
    static func record(_ camera: CaptureDevice, abilities: GPhotoCameraInfo? = nil) -> [String: JSONValue] {
        var record: [String: JSONValue] = [
            "id": .string(camera.id), "name": .string(camera.name), "position": .string(camera.position.rawValue),
            "test_camera": .bool(camera.isTestCamera),
            "formats": .array(camera.capabilities.map { capability in
                var format: [String: JSONValue] = [
                    "media_type": .string(capability.mediaType),
                    "min_width": .integer(Int64(capability.widths.lowerBound)), "max_width": .integer(Int64(capability.widths.upperBound)),
                    "min_height": .integer(Int64(capability.heights.lowerBound)), "max_height": .integer(Int64(capability.heights.upperBound)),
                ]
                if let pixelFormat = capability.pixelFormat { format["pixel_format"] = .string(pixelFormat) }
                switch capability.frameRates {
                case .discrete(let rates): format["frame_rates"] = .array(rates.sorted(by: >).map { .number($0.doubleValue) })
                case .range(let range): format["frame_rate_range"] = [.number(range.lowerBound.doubleValue), .number(range.upperBound.doubleValue)]
                case .unspecified: break
                }
                return .object(format)
            }),
        ]
        switch camera.kind {
        case .system(let path, let api, let source):
            (record["path"], record["api"], record["source"]) = (path.map(JSONValue.string) ?? .null, .string(api), .string(source))
        case .testPattern(let pattern):
            (record["path"], record["pattern"]) = (.null, .string(pattern))
        case .file(let path):
            record["path"] = .string(path)
        case .custom(let description):
            (record["path"], record["source"]) = (.null, .string(description))
        case .gphoto2(let model, let port):
            (record["path"], record["api"], record["model"], record["port"]) = (.null, .string("gphoto2"), .string(model), .string(port))
            record["formats"] = .array([])
            if let abilities {
                (record["captures"], record["live_view"], record["settings"]) = (.bool(abilities.canCapture), .bool(abilities.hasLiveView), .bool(abilities.hasSettings))
            }
        }
        return record
    }

    static func text(_ camera: CaptureDevice, abilities: GPhotoCameraInfo? = nil) -> String {
        var heading = "\(camera.id)  \(camera.name)"
        var details: [String] = []
        if case .system(_, let api, _) = camera.kind { details.append(api) }
        if case .gphoto2 = camera.kind {
            let can = abilities.map { [$0.canCapture ? "photos" : nil, $0.hasLiveView ? "live view" : nil, $0.hasSettings ? "settings" : nil].compactMap { $0 } } ?? []
            details.append("DSLR or mirrorless, through libgphoto2" + (can.isEmpty ? "" : ": " + can.joined(separator: ", ")))
            if camera.position != .unspecified { details.append(camera.position.rawValue) }
            return "\(heading) (\(details.joined(separator: ", ")))\n    live view at the size asked for; photos at the camera's own size, as it writes them"
        }
        if camera.position != .unspecified { details.append(camera.position.rawValue) }
        if camera.isTestCamera { details.append("built-in test camera; test:PATTERN picks a pattern") }
        if !details.isEmpty { heading += " (" + details.joined(separator: ", ") + ")" }
        let formats = camera.capabilities.map { capability in
            let encoding = capability.pixelFormat ?? (capability.mediaType == "image/jpeg" ? "MJPEG" : capability.mediaType)
            let size = capability.widths.count == 1 && capability.heights.count == 1
                ? "\(capability.widths.lowerBound)x\(capability.heights.lowerBound)"
                : "any size up to \(capability.widths.upperBound)x\(capability.heights.upperBound)"
            let rates = switch capability.frameRates {
            case .discrete(let rates): rates.sorted(by: >).map(FormatRequest.describe).joined(separator: ", ") + " fps"
            case .range(let range): "\(FormatRequest.describe(range.lowerBound))-\(FormatRequest.describe(range.upperBound)) fps"
            case .unspecified: "any rate"
            }
            return "    \(encoding) \(size) at \(rates)"
        }
        return ([heading] + formats).joined(separator: "\n")
    }
}

extension DevicesCommand {
    /// The camera's V4L2 controls with their current values, or why it has none.
    static func controls(of camera: CaptureDevice) -> Result<[(control: CameraControls.Control, value: Int?)], CaptureError> {
        guard let path = camera.controlsPath else {
            return .failure(CaptureError(.invalidSetting, camera.isTestCamera ? "the test camera" : "not a V4L2 camera"))
        }
        do {
            let device = try CameraControls(path: path)
            return .success(device.controls().filter { $0.kind != .other }.map { ($0, try? device.value(of: $0.id)) })
        } catch {
            return .failure(error)
        }
    }

    /// The controls, a line each under the camera.
    static func controlLines(_ camera: CaptureDevice) -> [String] {
        switch controls(of: camera) {
        case .failure(let reason): return ["    no V4L2 controls (\(reason.message))"]
        case .success(let controls) where controls.isEmpty: return ["    no V4L2 controls"]
        case .success(let controls):
            return ["  controls (--control KEY=VALUE):"] + controls.map { control, value in
                var range = "\(control.kind) \(control.minimum) to \(control.maximum), default \(control.defaultValue)"
                if !control.menu.isEmpty {
                    range = control.menu.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                }
                return "    \(control.key) = \(value.map(String.init) ?? "?")  (\(range)\(control.isWritable ? "" : ", read-only"))"
            }
        }
    }

    /// The controls as JSON objects (empty when the camera has none).
    static func controlRecords(_ camera: CaptureDevice) -> [JSONValue] {
        guard case .success(let controls) = controls(of: camera) else { return [] }
        return controls.map { control, value in
            ["key": .string(control.key), "name": .string(control.name), "kind": .string("\(control.kind)"),
             "value": value.map { .integer(Int64($0)) } ?? .null, "minimum": .integer(Int64(control.minimum)),
             "maximum": .integer(Int64(control.maximum)), "step": .integer(Int64(control.step)), "default": .integer(Int64(control.defaultValue)),
             "menu": .object(Dictionary(uniqueKeysWithValues: control.menu.map { (String($0.key), .string($0.value)) })),
             "writable": .bool(control.isWritable)]
        }
    }
}

extension CaptureDevice {
    /// The V4L2 node whose controls this camera has, if it is a V4L2 camera.
    var controlsPath: String? {
        guard case .system(let path?, "v4l2", _) = kind, path.hasPrefix("/dev/") else { return nil }
        return path
    }
}
