import CameraKit
import CameraOperator
import FileSystem
import Formatting
import FoundationEssentials
import Glibc
import JSON
import MQTTClient
import OperatorWire
import Synchronization

/// `camctl serve --broker`: the server as a node of a fleet, over an MQTT broker. It keeps a
/// retained status (and a last will saying it is offline), takes commands for it or for the whole
/// fleet, and publishes every event and each command's result:
///
/// | topic | what |
/// |---|---|
/// | `camctl/FLEET/NODE/status` | retained: `{"state": "online"|"offline", …}` |
/// | `camctl/FLEET/command`, `camctl/FLEET/NODE/command` | commands: `{"id": "…", "action": "…", "expires_at": UNIX-SECONDS, …}` |
/// | `camctl/FLEET/NODE/events` | events as `/api/events` sends them, `result` and `error` per command |
final class FleetNode: Sendable {
    /// The largest command taken.
    static let maximumCommand = 64 * 1024

    private let client: MQTTClient
    private let topics: (status: String, events: String)
    /// The status a node leaves behind: its last will, and what it says as it stops.
    private let offline: [UInt8]
    /// The commands taken, so none runs twice.
    private let ledger: CommandLedger
    private let announcing = Mutex<Task<Void, Never>?>(nil)
    /// How often the status is published again.
    static let announcementInterval = Duration.seconds(10)

    /// Joins `fleet` as `node` through the broker of `options`, taking commands into `router` and
    /// telling `events`' events; `status` is what the node says of itself, `base` where other
    /// machines reach its server (for download links).
    init(options: MQTTClient.Options, fleet: String, node: String, router: Router, events: EventHub, base: String, ledger: CommandLedger,
         status: @escaping @Sendable () async -> StatusRecord) throws(MQTTError) {
        self.ledger = ledger
        let prefix = "camctl/\(fleet)/\(node)"
        let topics = (status: prefix + "/status", events: prefix + "/events")
        var leaving = StatusRecord()
        (leaving.state, leaving.fleet, leaving.node) = ("offline", fleet, node)
        let offline = WireJSON.bytes(leaving)
        var options = options
        options.lastWill = (topics.status, offline)
        // The broker keeps the node's session while it is away (a cluster's server lost, a broker
        // restarted with its store): a command sent meanwhile comes when it is back, and is
        // answered, if only to say it came too late.
        options.keepsSession = true
        let box = NodeBox()
        client = try MQTTClient(options, onMessage: { message in
            box.node.withLock { $0 }?.take(message, router: router, base: base)
        }, onConnection: { connected, reason in
            let note = "camctl: the broker \(connected ? "is connected" : "is not connected (\(reason)); trying again")\n"
            _ = Array(note.utf8).withUnsafeBytes { DurableFile.writeAll($0, to: STDERR_FILENO) }
            guard connected, let node = box.node.withLock({ $0 }) else { return }
            Task { await node.announce(status) }
        })
        self.topics = topics
        self.offline = offline
        // Subscribed before the node is told of a connection: a connection made meanwhile would
        // otherwise say the node is online before it listens, and a controller's first command
        // would reach nobody.
        client.subscribe("camctl/\(fleet)/command")
        client.subscribe(prefix + "/command")
        box.node.withLock { $0 = self }
        events.listen { [client] json in client.publish(topics.events, json) }
        // Said again now and then: the library grows and the clock's state changes.
        announcing.withLock { $0 = Task { [weak self] in
            while !Task.isCancelled {
                await self?.announce(status)
                try? await Task.sleep(for: Self.announcementInterval)
            }
        } }
    }

    /// Publishes the retained status.
    func announce(_ status: @Sendable () async -> StatusRecord) async {
        var record = await status()
        record.state = "online"
        client.publish(topics.status, WireJSON.bytes(record), retain: true)
    }

    /// Leaves the fleet: the status says offline, and the client stops.
    func leave() {
        announcing.withLock { $0?.cancel() }
        client.publish(topics.status, offline, retain: true)
        client.stop()
    }

    /// A command: checked (size, JSON, id, expiry, not done before), then run; its result or the
    /// reason it was refused goes to the events topic. Besides the operator's actions, a node
    /// lists its library for a controller collecting the fleet's photos (`"action": "photos"`).
    private func take(_ message: MQTTClient.Message, router: Router, base: String) {
        guard !message.isRetained else { return }  // a command left on the broker is old news
        let id: String
        let object: [String: JSONValue]
        do throws(APIError) {
            (id, object) = try check(message.payload)
        } catch {
            publish(.error(id: Self.id(in: message.payload), status: error.status, message: error.message))
            return
        }
        Task {
            do throws(APIError) {
                let outcome = object["action"]?.string == "photos"
                    ? try await router.listing(object, base: base) : try await router.outcome(of: object)
                // Each photo with where other machines download it (a rig page links a node's last photo).
                publish(.result(id: id, outcome.withPhotos { photo in
                    var photo = photo
                    photo.url = photo.url ?? photo.guestLink.map { base + $0 + "/file" }
                    return photo
                }))
            } catch {
                publish(.error(id: id, status: error.status, message: error.message))
            }
        }
    }

    private func check(_ payload: [UInt8]) throws(APIError) -> (id: String, object: [String: JSONValue]) {
        guard payload.count <= Self.maximumCommand else {
            throw APIError(413, "the command is larger than \(Self.maximumCommand) bytes")
        }
        let object = try JSONBody.object(payload)
        guard let id = object["id"]?.string, !id.isEmpty, id.utf8.count <= 128 else {
            throw .badRequest("the command has no id; give \"id\": a text of at most 128 bytes, new for each command")
        }
        // Every command expires: its id is kept until then, so no replay of it ever runs again.
        guard let value = object["expires_at"] else {
            throw .badRequest(String(printf: "the command has no expires_at; give the time in seconds since 1970 after which it must not run, within %.0f hours",
                                     CommandLedger.longestLifetime / 3600))
        }
        guard let seconds = value.double, seconds.isFinite else {
            throw .badRequest("expires_at must be a time in seconds since 1970")
        }
        let late = Date().timeIntervalSince1970 - seconds
        guard late <= 0 else { throw APIError(410, String(printf: "the command expired %.3f seconds ago; it was not run", late)) }
        guard -late <= CommandLedger.longestLifetime else {
            throw .badRequest(String(printf: "expires_at must be within %.0f hours from now", CommandLedger.longestLifetime / 3600))
        }
        let expiry = Date(timeIntervalSince1970: seconds)
        let isNew: Bool
        do {
            isNew = try ledger.isNew(id, expiringAt: expiry)
        } catch {
            throw APIError(503, "the command \(id) could not be noted as taken (\(error.message)); it was not run")
        }
        guard isNew else { throw APIError(409, "the command \(id) was taken before; it is not run twice") }
        return (id, object)
    }

    private func publish(_ event: EventRecord) {
        client.publish(topics.events, WireJSON.bytes(event))
    }

    /// The id of a refused command, when one can be read.
    private static func id(in payload: [UInt8]) -> String? {
        guard payload.count <= maximumCommand else { return nil }
        return (try? JSONValue(parsing: payload))?["id"]?.string
    }
}

/// The node, for the client's callbacks, which are made before it is (the cycle ends when the
/// client stops and lets its callbacks go).
private final class NodeBox: Sendable {
    let node = Mutex<FleetNode?>(nil)
}
