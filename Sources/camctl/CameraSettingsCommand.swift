import CameraKit
import CameraOperator
import CGPhoto2
import GPhoto2
import GStreamer

/// `camctl camera-settings`: a DSLR or mirrorless camera's own settings (ISO, aperture, shutter
/// speed, white balance, image format…), listed, read and set by name.
struct CameraSettingsCommand: Subcommand {
    static let name = "camera-settings"
    static let synopsis = "camctl camera-settings --device gphoto2:PORT|gphoto2:MODEL [NAME | NAME=VALUE …] [--json]"
    static let summary = "list, read and set a DSLR's own settings (ISO, aperture, shutter speed, …)"
    static let help = """
        Lists the settings of the DSLR or mirrorless camera --device names (gphoto2:PORT or
        gphoto2:MODEL, as camctl devices lists them): each one's name, value, and what it may be
        (its choices, or its range), read-only ones marked. NAME shows one; NAME=VALUE sets it,
        checked against what the camera offers, and shows it as the camera then says it (several
        may be given, set in turn). --json prints one JSON object per setting. The camera keeps
        what is set until it is changed on the camera or here.
        """
    static let options: [ParsedArguments.Option] = [.init(name: "--device", value: "D", short: "-d"), .init(name: "--json", value: nil)]

    let device: String
    let asked: [(name: String, value: String?)]
    let printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        guard let device = arguments.string("--device"), device.hasPrefix("gphoto2:") else {
            throw CommandFailure("camera-settings needs --device gphoto2:PORT or gphoto2:MODEL, a DSLR or mirrorless camera as camctl devices lists it",
                                 exitCode: .usage)
        }
        self.device = device
        asked = arguments.positionals.map { word in
            guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
            return (String(word[..<equals]), String(word[word.index(after: equals)...]))
        }
        if let empty = asked.first(where: { $0.name.isEmpty }) {
            throw CommandFailure("\"=\(empty.value ?? "")\" names no setting; give NAME=VALUE, such as iso=400", exitCode: .usage)
        }
        printsJSON = arguments.flag("--json")
    }

    func run() async throws(CommandFailure) {
        let found: CaptureDevice
        do {
            // Finding the camera asks libgphoto2 to look on the USB ports: off Swift's shared threads.
            found = try await DeviceDiscovery.lane.run { [device] () throws(CaptureError) in try DeviceDiscovery.device(named: device) }
        } catch {
            throw CommandFailure(error)
        }
        guard case .gphoto2(let model, let port) = found.kind else {
            throw CommandFailure("\(device) is not a DSLR or mirrorless camera", exitCode: .usage)
        }
        let camera: GPhotoCamera
        do {
            camera = try await GPhotoCamera.open(model: model, port: port)
        } catch {
            throw CommandFailure(CaptureError(error))
        }
        let shown: Result<[GPhotoSetting], GPhotoError>
        do throws(GPhotoError) {
            if asked.isEmpty {
                shown = .success(try await camera.settings())
            } else {
                var settings: [GPhotoSetting] = []
                var all: [GPhotoSetting]?
                for (name, value) in asked {
                    if let value {
                        settings.append(try await camera.set(name, to: value))
                    } else {
                        if all == nil { all = try await camera.settings() }
                        guard let setting = all?.first(where: { $0.name == name }) else {
                            throw GPhotoError(code: GP_ERROR_BAD_PARAMETERS, "the camera has no setting \(name); camctl camera-settings --device \(device) lists them")
                        }
                        settings.append(setting)
                    }
                }
                shown = .success(settings)
            }
        } catch {
            shown = .failure(error)
        }
        await camera.close()
        let settings: [GPhotoSetting]
        do {
            settings = try shown.get()
        } catch {
            throw CommandFailure(CaptureError(error))
        }
        for setting in settings {
            if printsJSON { try Console.json(setting.record) } else { try Console.result(Self.line(setting)) }
        }
    }

    /// `iso = 400  (ISO Speed: 100, 200, 400, …)`, read-only ones marked.
    static func line(_ setting: GPhotoSetting) -> String {
        var offer = ""
        if !setting.choices.isEmpty {
            offer = ": " + setting.choices.prefix(24).joined(separator: ", ") + (setting.choices.count > 24 ? ", …" : "")
        } else if let range = setting.range {
            offer = ": \(range.minimum) to \(range.maximum) by \(range.step)"
        } else if setting.kind == .toggle {
            offer = ": on or off"
        }
        return "\(setting.name) = \(setting.value)  (\(setting.label)\(offer)\(setting.isReadOnly ? ", read-only" : ""))"
    }
}
