import FoundationEssentials
import Glibc
import JSON
import MQTTClient
import Synchronization

/// What a controller hears from a fleet: each node's status, and the answers to its commands.
/// Give it every message of `camctl/FLEET/+/status` and `camctl/FLEET/+/events`.
public final class FleetWatch: Sendable {
    /// A node as its retained status describes it.
    public struct Node: Sendable {
        public let name: String
        public let isOnline: Bool
        public let device: String
        /// Its server's address.
        public let url: String
        /// Whether its system clock says it is synchronized; `nil` when it does not say.
        public let clockSynchronized: Bool?
        /// The largest error its clock admits, in seconds, when it says.
        public let clockError: Double?

        public var record: [String: Any] {
            [
                "node": name, "state": isOnline ? "online" : "offline", "device": device, "url": url,
                "clock_synchronized": clockSynchronized.map(JSONValue.bool) ?? .null,
            ]
        }

        public var line: String {
            let clock = switch clockSynchronized {
            case true?: "clock synchronized"
            case false?: "clock NOT synchronized"
            case nil: "clock unknown"
            }
            return "\(name)  \(isOnline ? "online" : "offline")  \(device)  \(url)  \(clock)"
        }
    }

    /// A node's answer to a command.
    public enum Answer: Sendable {
        /// A photo: its frame instant (seconds since 1970) and where the node keeps it.
        case photo(capturedAt: Double, path: String)
        /// A page of the node's library, and whether more follow.
        case listing([FleetPhoto], more: Bool)
        case refused(String)
    }

    private let statuses = Mutex<[String: Node]>([:])
    private let answered = Mutex<[String: [String: Answer]]>([:])
    /// Whether the client is connected to the broker, and why not when it is not.
    private let link = Mutex<(connected: Bool, reason: String?)>((false, nil))

    public init() {}

    /// What the client says of its connection to the broker (its `onConnection`).
    public func connection(_ connected: Bool, _ reason: String) {
        link.withLock { $0 = (connected, connected ? nil : reason) }
    }

    /// Waits until the client is connected, at most until `deadline`; `nil` when it is, else why
    /// it is not (the broker's refusal, or that it could not be reached).
    public func connected(by deadline: ContinuousClock.Instant) async -> String? {
        while ContinuousClock.now < deadline {
            if link.withLock({ $0.connected }) { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return link.withLock { $0.connected ? nil : $0.reason ?? "no answer" }
    }

    /// A message from the broker: a node's status or one of its events.
    public func take(_ message: MQTTClient.Message) {
        let levels = message.topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 4, FleetPhoto.isPlainName(String(levels[2])),
              let object = (try? JSONValue(parsing: message.payload))?.object else { return }
        let node = String(levels[2])
        if levels[3] == "status" {
            let clock = object["clock"]?.object
            let entry = Node(name: node, isOnline: object["state"]?.string == "online", device: object["device"]?.string ?? "",
                             url: object["url"]?.string ?? "", clockSynchronized: clock?["synchronized"]?.bool,
                             clockError: clock?["max_error_s"]?.double)
            statuses.withLock { $0[node] = entry }
            return
        }
        guard levels[3] == "events", let id = object["id"]?.string, let answer = Self.answer(object, node: node) else { return }
        answered.withLock { $0[id, default: [:]][node] = answer }
    }

    /// What a `result` or `error` event answers.
    private static func answer(_ object: [String: JSONValue], node: String) -> Answer? {
        switch object["event"]?.string {
        case "result" where object["outcome"]?.string == "listing":
            guard let records = object["photos"]?.array?.compactMap(\.object) else { return .refused("the node's listing has no photos") }
            let photos = records.compactMap { FleetPhoto(record: $0, node: node) }
            guard photos.count == records.count else { return .refused("the node listed a photo that cannot be read") }
            return .listing(photos, more: object["more"]?.bool ?? false)
        case "result":
            guard let photo = object["photos"]?.array?.compactMap(\.object).first, let microseconds = photo["captured_at_us"]?.double else {
                return .refused("the node answered without a photo")
            }
            guard (0...FleetPhoto.latestMicroseconds).contains(microseconds) else {
                return .refused("the node answered with a capture time that cannot be")
            }
            // Where the photo is: its download link, else its file in the node's library.
            if let url = photo["url"]?.string, FleetPhoto.isWebAddress(url) {
                return .photo(capturedAt: microseconds / 1e6, path: url)
            }
            guard let path = photo["path"]?.string, let name = path.split(separator: "/").last, FleetPhoto.isPhotoFileName(String(name)),
                  !path.contains(where: { $0.asciiValue.map { $0 < 0x20 } == true }) else {
                return .refused("the node answered with no photo of its library")
            }
            return .photo(capturedAt: microseconds / 1e6, path: path)
        case "error":
            return .refused(object["error"]?.string ?? "refused")
        default:
            return nil
        }
    }

    /// The nodes heard of, by name.
    public func nodes() -> [Node] {
        statuses.withLock { $0 }.values.sorted { $0.name < $1.name }
    }

    /// The answers to a command so far, by node.
    public func answers(to id: String) -> [String: Answer] {
        answered.withLock { $0[id] ?? [:] }
    }

    /// The answer of `node` to a command, awaited until `deadline`.
    public func answer(to id: String, from node: String, by deadline: ContinuousClock.Instant) async -> Answer? {
        while ContinuousClock.now < deadline {
            if let answer = answered.withLock({ $0[id]?[node] }) { return answer }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return answered.withLock { $0[id]?[node] }
    }
}
