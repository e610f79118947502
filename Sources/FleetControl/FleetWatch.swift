import FoundationEssentials
import Glibc
import MQTTClient
import OperatorWire
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
        /// Its small live picture's link, the photos in its library and the bytes free for them,
        /// when it says.
        public let tileURL: String?
        public let photos: Int?
        public let freeBytes: Int64?

        /// The node as `camctl fleet nodes --json` prints it.
        public var record: Record {
            Record(node: name, state: isOnline ? "online" : "offline", device: device, url: url, clockSynchronized: clockSynchronized)
        }

        /// A node's line of `camctl fleet nodes --json`; `clock_synchronized` is `null` when the
        /// node does not say.
        public struct Record: Encodable, Sendable {
            let node: String, state: String, device: String, url: String
            let clockSynchronized: Bool?

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(node, forKey: .node)
                try container.encode(state, forKey: .state)
                try container.encode(device, forKey: .device)
                try container.encode(url, forKey: .url)
                try container.encode(clockSynchronized, forKey: .clockSynchronized)
            }

            enum CodingKeys: String, CodingKey {
                case node, state, device, url
                case clockSynchronized = "clock_synchronized"
            }
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
        /// A photo: its frame instant (seconds since 1970), where the node keeps it (its download
        /// link, else its file), and the node's name for it (what a collection keeps it under).
        case photo(capturedAt: Double, path: String, fileName: String)
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
        guard levels.count == 4, FleetPhoto.isPlainName(String(levels[2])) else { return }
        let node = String(levels[2])
        if levels[3] == "status" {
            guard let status = try? WireJSON.decode(StatusRecord.self, from: message.payload) else { return }
            let entry = Node(name: node, isOnline: status.state == "online", device: status.device ?? "", url: status.url ?? "",
                             clockSynchronized: status.clock?.synchronized, clockError: status.clock?.maximumError,
                             tileURL: status.tileURL.flatMap { FleetPhoto.isWebAddress($0) ? $0 : nil }, photos: status.photos, freeBytes: status.freeBytes)
            statuses.withLock { $0[node] = entry }
            return
        }
        // Only a command's answer matters here; a node's other events are not this watch's.
        guard levels[3] == "events", let envelope = try? WireJSON.decode(AnswerEnvelope.self, from: message.payload),
              ["result", "error"].contains(envelope.event), let id = envelope.id else { return }
        let answer: Answer
        do {
            answer = Self.answer(try WireJSON.decode(EventRecord.self, from: message.payload), node: node)
        } catch {
            answer = .refused("the node's answer cannot be read (\(error.reason))")
        }
        answered.withLock { $0[id, default: [:]][node] = answer }
    }

    /// What every answer to a command has: its kind, and the command's id.
    private struct AnswerEnvelope: Decodable {
        let event: String
        let id: String?
    }

    /// What a `result` or `error` event answers.
    private static func answer(_ event: EventRecord, node: String) -> Answer {
        switch event {
        case .result(_, .listing(let records, let more)):
            let photos = records.compactMap { FleetPhoto(record: $0, node: node) }
            guard photos.count == records.count else { return .refused("the node listed a photo that cannot be read") }
            return .listing(photos, more: more)
        case .result(_, let outcome):
            guard let photo = outcome.allPhotos.first else { return .refused("the node answered without a photo") }
            let microseconds = Double(photo.capturedAtMicroseconds)
            guard (0...FleetPhoto.latestMicroseconds).contains(microseconds) else {
                return .refused("the node answered with a capture time that cannot be")
            }
            guard let name = photo.path.split(separator: "/").last, FleetPhoto.isPhotoFileName(String(name)),
                  !photo.path.contains(where: { $0.asciiValue.map { $0 < 0x20 } == true }) else {
                return .refused("the node answered with no photo of its library")
            }
            // Where the photo is: its download link, else its file in the node's library.
            if let url = photo.url, FleetPhoto.isWebAddress(url) {
                return .photo(capturedAt: microseconds / 1e6, path: url, fileName: String(name))
            }
            return .photo(capturedAt: microseconds / 1e6, path: photo.path, fileName: String(name))
        case .error(_, _, let message):
            return .refused(message)
        default:
            return .refused("the node answered with an event that is no answer")
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
