import Foundation
import GStreamer

/// Cameras shared through PipeWire, listed with PipeWire's own `pw-dump` and read with
/// `pipewiresrc`, so several programs can use a camera at once.
///
/// GStreamer's PipeWire device provider is not used: the one in Debian 12 (PipeWire 0.3.65)
/// corrupts memory when probed (`gst-device-monitor-1.0` itself crashed in 8 of 10 runs here
/// while a PipeWire camera was published), so it is switched off for camctl's monitors, which
/// then see V4L2 cameras directly.
enum PipeWireCameras {
    /// The cameras PipeWire offers now; empty where PipeWire does not run or `pw-dump` is missing.
    static func list() -> [CaptureDevice] {
        guard let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"],
              FileManager.default.fileExists(atPath: runtime + "/pipewire-0"),
              let dump = run("pw-dump", timeout: .seconds(3)) else { return [] }
        return cameras(inDump: dump)
    }

    /// The `Video/Source` nodes of a `pw-dump` as cameras.
    static func cameras(inDump dump: Data) -> [CaptureDevice] {
        guard let objects = try? JSONSerialization.jsonObject(with: dump) as? [[String: Any]] else { return [] }
        return objects.compactMap { object in
            guard object["type"] as? String == "PipeWire:Interface:Node",
                  let info = object["info"] as? [String: Any], let properties = info["props"] as? [String: Any],
                  properties["media.class"] as? String == "Video/Source",
                  let serial = (properties["object.serial"] as? NSNumber)?.intValue else { return nil }
            let name = properties["node.description"] as? String ?? properties["node.name"] as? String ?? "PipeWire camera \(serial)"
            let objectPath = (properties["object.path"] as? String).flatMap { $0.hasPrefix("v4l2:") ? String($0.dropFirst(5)) : nil }
            let path = properties["api.v4l2.path"] as? String ?? objectPath
            let formats = ((info["params"] as? [String: Any])?["EnumFormat"] as? [[String: Any]]) ?? []
            let position: CaptureDevice.Position = switch properties["api.libcamera.location"] as? String {
            case "front": .front
            case "back": .back
            case "external": .external
            default: .unspecified
            }
            return CaptureDevice(id: path ?? name, name: name,
                                 kind: .system(path: path, api: "pipewire", source: "pipewiresrc target-object=\(serial)"),
                                 position: position, capabilities: formats.flatMap(capabilities))
        }
    }

    /// A PipeWire `EnumFormat` entry as capabilities; a value may be fixed or a choice
    /// (`{"default": …, "min": …, "max": …}` or `{"default": …, "alt1": …}`).
    static func capabilities(_ format: [String: Any]) -> [VideoCapability] {
        guard format["mediaType"] as? String == "video" else { return [] }
        let subtype = format["mediaSubtype"] as? String
        let mediaType = subtype == "mjpg" ? "image/jpeg" : subtype == "raw" ? "video/x-raw" : nil
        guard let mediaType else { return [] }
        let pixelFormats = mediaType == "video/x-raw" ? choices(format["format"]).compactMap { $0 as? String } : [nil]
        let sizes = choices(format["size"]).compactMap { $0 as? [String: Any] }
        let rates = choices(format["framerate"]).compactMap { value -> Fraction? in
            guard let rate = value as? [String: Any], let num = (rate["num"] as? NSNumber)?.intValue,
                  let denom = (rate["denom"] as? NSNumber)?.intValue, num > 0, denom > 0 else { return nil }
            return Fraction(num, denom)
        }
        let frameRates: VideoCapability.FrameRates = rates.isEmpty ? .unspecified : .discrete(rates)
        return pixelFormats.flatMap { pixelFormat in
            sizes.compactMap { size -> VideoCapability? in
                guard let width = (size["width"] as? NSNumber)?.intValue, let height = (size["height"] as? NSNumber)?.intValue,
                      width > 0, height > 0 else { return nil }
                return VideoCapability(mediaType: mediaType, pixelFormat: pixelFormat, widths: width...width,
                                       heights: height...height, frameRates: frameRates)
            }
        }
    }

    /// The values a field may take: itself, or the entries of a choice (all but a range's bounds).
    private static func choices(_ value: Any?) -> [Any] {
        guard let value else { return [] }
        guard let choice = value as? [String: Any], choice["default"] != nil else { return [value] }
        if choice["min"] != nil { return [choice["default"]!] }  // a range: its default
        return choice.keys.sorted().compactMap { choice[$0] }
    }

    /// A program's standard output, or `nil` when it fails or takes longer than `timeout`.
    private static func run(_ program: String, timeout: Duration) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        guard (try? process.run()) != nil else { return nil }
        // A hung program is killed, which also ends the read below.
        let watchdog = DispatchWorkItem { [process] in process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + Double(timeout.components.seconds), execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        ended.wait()
        watchdog.cancel()
        return process.terminationReason == .exit && process.terminationStatus == 0 ? data : nil
    }
}
