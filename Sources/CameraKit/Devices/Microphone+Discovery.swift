import GStreamer
import JSON

extension Microphone {
    /// A microphone present now: its name and the source element that reads it.
    struct Listing: Sendable {
        let name: String
        /// The source in gst-launch syntax (`pipewiresrc target-object=42`, `pulsesrc device=…`).
        let source: String
        /// Whether its sound system marks it as the default one.
        let isDefault: Bool
    }

    /// The microphones present now: PipeWire's (from ``PipeWireDump``), then those GStreamer's
    /// other device providers find (PulseAudio, ALSA) under names not listed yet. Monitors of
    /// outputs (what a speaker plays) are not microphones.
    static func list() -> [Listing] {
        let shared = PipeWireDump.current().map(pipeWireMicrophones(inDump:)) ?? []
        let devices = ((try? DeviceDiscovery.makeMonitor(classes: ["Audio/Source"]).devices()) ?? [])
            .filter { !$0.deviceClass.contains("Monitor") }
        let names = Set(shared.map(\.name))
        return shared + devices.compactMap { device in
            guard !names.contains(device.displayName), let source = device.sourceDescription else { return nil }
            return Listing(name: device.displayName, source: source, isDefault: device.properties?["is-default"]?.boolValue == true)
        }
    }

    /// The `Audio/Source` nodes of a `pw-dump` as microphones, then the virtual ones (a
    /// microphone's sound cleaned of noise, say).
    static func pipeWireMicrophones(inDump dump: some Collection<UInt8>) -> [Listing] {
        let nodes = PipeWireDump.nodes(ofClass: "Audio/Source", inDump: dump) + PipeWireDump.nodes(ofClass: "Audio/Source/Virtual", inDump: dump)
        return nodes.compactMap { _, properties in
            guard let serial = properties["object.serial"]?.int else { return nil }
            let name = properties["node.description"]?.string ?? properties["node.name"]?.string ?? "PipeWire microphone \(serial)"
            return Listing(name: name, source: "pipewiresrc target-object=\(serial)", isDefault: false)
        }
    }
}
