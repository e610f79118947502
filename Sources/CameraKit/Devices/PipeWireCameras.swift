import GStreamer
import JSON

/// Cameras shared through PipeWire, listed from ``PipeWireDump`` and read with `pipewiresrc`, so
/// several programs can use a camera at once.
enum PipeWireCameras {
    /// The cameras PipeWire offers now; empty where PipeWire does not run or `pw-dump` is missing.
    static func list() -> [CaptureDevice] {
        PipeWireDump.current().map(cameras(inDump:)) ?? []
    }

    /// The `Video/Source` nodes of a `pw-dump` as cameras.
    static func cameras(inDump dump: some Collection<UInt8>) -> [CaptureDevice] {
        PipeWireDump.nodes(ofClass: "Video/Source", inDump: dump).compactMap { info, properties in
            guard let serial = properties["object.serial"]?.int else { return nil }
            let name = properties["node.description"]?.string ?? properties["node.name"]?.string ?? "PipeWire camera \(serial)"
            let objectPath = (properties["object.path"]?.string).flatMap { $0.hasPrefix("v4l2:") ? String($0.dropFirst(5)) : nil }
            let path = properties["api.v4l2.path"]?.string ?? objectPath
            let formats = info["params"]?["EnumFormat"]?.array?.compactMap(\.object) ?? []
            let position: CaptureDevice.Position = switch properties["api.libcamera.location"]?.string {
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
    static func capabilities(_ format: [String: JSONValue]) -> [VideoCapability] {
        guard format["mediaType"]?.string == "video" else { return [] }
        let subtype = format["mediaSubtype"]?.string
        let mediaType = subtype == "mjpg" ? "image/jpeg" : subtype == "raw" ? "video/x-raw" : nil
        guard let mediaType else { return [] }
        let pixelFormats = mediaType == "video/x-raw" ? choices(format["format"]).compactMap(\.string) : [nil]
        let sizes = choices(format["size"]).compactMap(\.object)
        let rates = choices(format["framerate"]).compactMap { value -> Fraction? in
            guard let rate = value.object, let num = rate["num"]?.int,
                  let denom = rate["denom"]?.int, num > 0, denom > 0 else { return nil }
            return Fraction(num, denom)
        }
        let frameRates: VideoCapability.FrameRates = rates.isEmpty ? .unspecified : .discrete(rates)
        let capabilities = pixelFormats.flatMap { pixelFormat in
            sizes.compactMap { size -> VideoCapability? in
                guard let width = size["width"]?.int, let height = size["height"]?.int,
                      width > 0, height > 0 else { return nil }
                return VideoCapability(mediaType: mediaType, pixelFormat: pixelFormat, widths: width...width,
                                       heights: height...height, frameRates: frameRates)
            }
        }
        // A choice may name its default again among its alternatives: each capability once.
        return capabilities.enumerated().filter { index, capability in !capabilities[..<index].contains(capability) }.map(\.element)
    }

    /// The values a field may take: itself, or the entries of a choice (all but a range's bounds).
    private static func choices(_ value: JSONValue?) -> [JSONValue] {
        guard let value else { return [] }
        guard let choice = value.object, choice["default"] != nil else { return [value] }
        if choice["min"] != nil { return [choice["default"]!] }  // a range: its default
        return choice.keys.sorted().compactMap { choice[$0] }
    }
}
