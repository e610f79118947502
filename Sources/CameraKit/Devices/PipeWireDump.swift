import FoundationEssentials
import JSON
import Processes

/// What PipeWire shares, as its own `pw-dump` lists it.
///
/// GStreamer's PipeWire device provider is not used: the one in Debian 12 (PipeWire 0.3.65)
/// corrupts memory when probed (`gst-device-monitor-1.0` itself crashed in 8 of 10 runs here
/// while a PipeWire camera was published), so it is switched off for camctl's monitors.
enum PipeWireDump {
    /// `pw-dump`'s output now; `nil` where PipeWire does not run, `pw-dump` is missing, or it
    /// failed three times.
    static func current() -> [UInt8]? {
        guard let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"],
              FileManager.default.fileExists(atPath: runtime + "/pipewire-0") else { return nil }
        // It answers in about 50 ms; a loaded machine once took over 3 s, and the camera was not
        // found. It fails now and then when a client of PipeWire comes or goes while it dumps:
        // asked again, it answers.
        for _ in 0..<3 {
            if let dump = ChildProcess.output(of: "pw-dump", timeout: .seconds(10)) { return dump }
        }
        return nil
    }

    /// The nodes of a `media.class` in a dump: each node's info and its properties, in order.
    static func nodes(ofClass mediaClass: String, inDump dump: some Collection<UInt8>) -> [(info: [String: JSONValue], properties: [String: JSONValue])] {
        objects(inDump: dump).compactMap { object in
            guard object["type"]?.string == "PipeWire:Interface:Node",
                  let info = object["info"]?.object, let properties = info["props"]?.object,
                  properties["media.class"]?.string == mediaClass else { return nil }
            return (info, properties)
        }
    }

    /// The objects of a dump as they stand at its end, in the order they came. After the dump
    /// itself `pw-dump` prints what changed while it ran, each time as another array: an object
    /// again, with what changed, or only its id and `"info": null` when it was removed.
    static func objects(inDump dump: some Collection<UInt8>) -> [[String: JSONValue]] {
        guard let batches = try? JSONValue.sequence(parsing: dump) else { return [] }
        var order: [Int] = [], byID: [Int: [String: JSONValue]] = [:]
        for (index, entry) in batches.flatMap({ $0.array ?? [] }).compactMap(\.object).enumerated() {
            let id = entry["id"]?.int ?? -1 - index  // one without an id is kept as it is
            if entry.keys.allSatisfy({ $0 == "id" || $0 == "info" }), case .null? = entry["info"] {
                byID[id] = nil
                order.removeAll { $0 == id }
            } else if let known = byID[id] {
                byID[id] = merged(known, entry)
            } else {
                byID[id] = entry
                order.append(id)
            }
        }
        return order.compactMap { byID[$0] }
    }

    /// `earlier` with what `later` says in its place, objects within merged the same way.
    private static func merged(_ earlier: [String: JSONValue], _ later: [String: JSONValue]) -> [String: JSONValue] {
        earlier.merging(later) { old, new in
            if let old = old.object, let new = new.object { return .object(merged(old, new)) }
            return new
        }
    }
}
