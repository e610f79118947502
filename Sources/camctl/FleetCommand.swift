import CameraServer
import Foundation
import MQTTClient
import Synchronization

/// `camctl fleet`: the controller of a fleet of `camctl serve --broker` nodes: which nodes there
/// are, and a synchronized capture on all of them.
struct FleetCommand: Subcommand {
    static let name = "fleet"
    static let synopsis = """
        camctl fleet    list|capture --broker mqtt://HOST[:PORT] --fleet NAME [--at SECONDS] [--timeout SECONDS] [--json]
                        [--broker-user USER] [--broker-password-file FILE] [--broker-ca FILE]
        """
    static let summary = "list a fleet's nodes, or take a synchronized photo on all of them"
    static let help = """
        list      the nodes whose status the broker keeps: name, online or offline, camera, address
        capture   a photo on every online node of the frame its camera took nearest one instant,
                  --at seconds from now (1 by default); prints each node's frame instant and how far
                  it is from the asked one, then the skew between the nodes. A node that refuses, or
                  does not answer within --timeout seconds after the instant (10), is named, and camctl
                  exits 69. The command expires a second after the instant: a node that gets it late
                  never fires late.
        --json prints one JSON object per node, then one for the fleet.
        """
    static let options: [ParsedArguments.Option] = [
        .init(name: "--broker", value: "URL"), .init(name: "--fleet", value: "NAME"), .init(name: "--at", value: "SECONDS"),
        .init(name: "--timeout", value: "SECONDS"), .init(name: "--json", value: nil),
        .init(name: "--broker-user", value: "USER"), .init(name: "--broker-password-file", value: "FILE"),
        .init(name: "--broker-ca", value: "FILE"),
    ]
    static let words = ["list", "capture"]

    let isCapture: Bool
    let fleet: CameraServer.Fleet
    let delay: Double
    let timeout: Double
    let printsJSON: Bool

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        guard arguments.positionals.count == 1, let word = arguments.positionals.first, Self.words.contains(word) else {
            throw CommandFailure("camctl fleet takes list or capture", exitCode: .usage)
        }
        isCapture = word == "capture"
        guard var fleet = try ServeCommand.fleet(arguments) else {
            throw CommandFailure("camctl fleet needs --broker mqtt://HOST[:PORT] and --fleet NAME", exitCode: .usage)
        }
        fleet.broker.clientID = "camctl-controller-\(fleet.name)-\(getpid())"
        self.fleet = fleet
        delay = try arguments.seconds("--at", in: 0.05...3600) ?? 1
        timeout = try arguments.seconds("--timeout", in: 0.5...3600) ?? 10
        printsJSON = arguments.flag("--json")
    }

    func run() async throws(CommandFailure) {
        let watch = FleetWatch()
        let client: MQTTClient
        do {
            client = try MQTTClient(fleet.broker, onMessage: { watch.take($0) })
        } catch {
            throw CommandFailure(error.description, exitCode: .unavailable)
        }
        defer { client.stop() }
        client.subscribe("camctl/\(fleet.name)/+/status")
        client.subscribe("camctl/\(fleet.name)/+/events")
        try? await Task.sleep(for: .seconds(1))  // the retained statuses arrive
        let nodes = watch.nodes()
        if !isCapture {
            for node in nodes {
                if printsJSON { try Console.json(node.record) } else { try Console.result(node.line) }
            }
            return
        }
        let online = nodes.filter(\.isOnline).map(\.name)
        guard !online.isEmpty else {
            throw CommandFailure("no node of the fleet \(fleet.name) is online on the broker; start one with camctl serve --broker … --fleet \(fleet.name)",
                                 exitCode: .unavailable)
        }
        let instant = Date().timeIntervalSince1970 + delay
        let id = "capture-\(UUID().uuidString)"
        let command: [String: Any] = ["id": id, "action": "capture", "at": instant, "expires_at": instant + 1]
        guard let payload = try? JSONSerialization.data(withJSONObject: command),
              client.publish("camctl/\(fleet.name)/command", [UInt8](payload)) else {
            throw CommandFailure("the command could not be sent to the broker", exitCode: .unavailable)
        }
        let deadline = ContinuousClock.now + .seconds(delay + timeout)
        while ContinuousClock.now < deadline, watch.answers(to: id).count < online.count {
            try? await Task.sleep(for: .milliseconds(50))
        }
        try report(watch.answers(to: id), nodes: online, instant: instant)
    }

    /// Prints each node's answer and the skew; fails naming the nodes without a photo.
    private func report(_ answers: [String: FleetWatch.Answer], nodes: [String], instant: Double) throws(CommandFailure) {
        var taken: [Double] = []
        for node in nodes {
            switch answers[node] {
            case .photo(let capturedAt, let path)?:
                taken.append(capturedAt)
                let offset = (capturedAt - instant) * 1000
                if printsJSON {
                    try Console.json(["node": node, "captured_at_us": Int64((capturedAt * 1e6).rounded()), "offset_ms": offset, "path": path])
                } else {
                    try Console.result(String(format: "%@  %+.1f ms  %@", node, offset, path))
                }
            case .refused(let message)?:
                if printsJSON { try Console.json(["node": node, "error": message]) } else { try Console.result("\(node)  refused: \(message)") }
            case nil:
                if printsJSON { try Console.json(["node": node, "error": "no answer"]) } else { try Console.result("\(node)  no answer") }
            }
        }
        let skew = ((taken.max() ?? 0) - (taken.min() ?? 0)) * 1000
        if printsJSON {
            try Console.json(["fleet": fleet.name, "at_us": Int64((instant * 1e6).rounded()), "photos": taken.count, "skew_ms": skew])
        } else if taken.count > 1 {
            try Console.result(String(format: "skew %.1f ms over %d nodes", skew, taken.count))
        }
        let missing = nodes.filter { if case .photo? = answers[$0] { false } else { true } }
        guard missing.isEmpty else {
            let refused = missing.filter { answers[$0] != nil }, silent = missing.filter { answers[$0] == nil }
            let parts = (silent.isEmpty ? [] : ["\(silent.joined(separator: ", ")) did not answer in time"])
                + (refused.isEmpty ? [] : ["\(refused.joined(separator: ", ")) refused"])
            throw CommandFailure(parts.joined(separator: "; ") + "; their photos were not taken", exitCode: .unavailable)
        }
    }
}

/// What a controller hears from a fleet: each node's status, and the answers to its commands.
final class FleetWatch: Sendable {
    struct Node {
        let name: String
        let isOnline: Bool
        let device: String
        let url: String

        var record: [String: Any] { ["node": name, "state": isOnline ? "online" : "offline", "device": device, "url": url] }
        var line: String { "\(name)  \(isOnline ? "online" : "offline")  \(device)  \(url)" }
    }

    enum Answer: Sendable {
        /// The photo's frame instant (seconds since 1970) and where the node keeps it.
        case photo(capturedAt: Double, path: String)
        case refused(String)
    }

    private let statuses = Mutex<[String: (online: Bool, device: String, url: String)]>([:])
    private let answered = Mutex<[String: [String: Answer]]>([:])

    /// A message from the broker: a node's status or one of its events.
    func take(_ message: MQTTClient.Message) {
        let levels = message.topic.split(separator: "/")
        guard levels.count == 4, let object = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any] else { return }
        let node = String(levels[2])
        if levels[3] == "status" {
            let entry = (object["state"] as? String == "online", object["device"] as? String ?? "", object["url"] as? String ?? "")
            statuses.withLock { $0[node] = entry }
            return
        }
        guard let id = object["id"] as? String else { return }
        let answer: Answer
        switch object["event"] as? String {
        case "result":
            guard let photo = (object["photos"] as? [[String: Any]])?.first, let microseconds = (photo["captured_at_us"] as? NSNumber)?.doubleValue else {
                answer = .refused("the node answered without a photo")
                break
            }
            answer = .photo(capturedAt: microseconds / 1e6, path: photo["url"] as? String ?? photo["path"] as? String ?? "")
        case "error":
            answer = .refused(object["error"] as? String ?? "refused")
        default:
            return
        }
        answered.withLock { $0[id, default: [:]][node] = answer }
    }

    /// The nodes heard of, by name.
    func nodes() -> [Node] {
        statuses.withLock { $0 }.sorted { $0.key < $1.key }.map { Node(name: $0.key, isOnline: $0.value.online, device: $0.value.device, url: $0.value.url) }
    }

    func answers(to id: String) -> [String: Answer] {
        answered.withLock { $0[id] ?? [:] }
    }
}
