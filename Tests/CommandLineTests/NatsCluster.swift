import Foundation
import Glibc
import TestSupport

/// Three nats-server servers of the test's own, clustered on loopback with JetStream, each with an
/// MQTT listener: a broker that goes on when one of its servers is lost. Ended with the value.
final class NatsCluster {
    /// Each server's MQTT port, its cluster route's port and its client port.
    let mqttPorts: [Int]
    private let routePorts: [Int]
    private let clientPorts: [Int]
    private let folder: TemporaryFolder
    private var servers: [ChildProcess.Running?]

    static var isAvailable: Bool { ["nats-server", "mosquitto_pub", "mosquitto_sub"].allSatisfy(ChildProcess.isInstalled) }

    /// Starts the three servers on ports picked at random (a port taken makes a server end, which
    /// ``ready()`` tells), and waits until each takes a message.
    init() async throws {
        let base = Int.random(in: 2000...4000) * 10
        (mqttPorts, routePorts, clientPorts) = ((0..<3).map { base + $0 }, (0..<3).map { base + 3 + $0 }, (0..<3).map { base + 6 + $0 })
        folder = try TemporaryFolder()
        servers = [nil, nil, nil]
        for index in 0..<3 { try start(index) }
        try await ready()
    }

    /// The brokers as `--broker` takes them, starting with server `first`.
    func brokers(from first: Int) -> String {
        "mqtt://" + (0..<3).map { "127.0.0.1:\(mqttPorts[(first + $0) % 3])" }.joined(separator: ",")
    }

    /// Starts server `index` (again) with its store, as its configuration says.
    func start(_ index: Int) throws {
        let routes = routePorts.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", ")
        let configuration = try folder.file("s\(index).conf", holding: """
            server_name: s\(index)
            listen: 127.0.0.1:\(clientPorts[index])
            jetstream { store_dir: "\(folder.path("store\(index)"))" }
            cluster { name: camctl, listen: 127.0.0.1:\(routePorts[index]), routes: [\(routes)] }
            mqtt { listen: 127.0.0.1:\(mqttPorts[index]) }

            """)
        servers[index] = try ChildProcess.Running("/usr/sbin/nats-server", ["-c", configuration])
    }

    /// Kills server `index`, as a lost machine goes.
    func kill(_ index: Int) async {
        servers[index]?.send(SIGKILL)
        _ = await servers[index]?.finished(timeout: 60)
        servers[index] = nil
    }

    /// Waits until every running server takes a QoS 1 message for a kept session, as camctl's
    /// nodes keep theirs: the cluster has chosen its JetStream leader and made the MQTT streams.
    /// Asked again each second, within a hang guard of two minutes.
    func ready() async throws {
        for index in servers.indices where servers[index] != nil {
            let taken = await until(every: .seconds(1)) {
                // A server that takes the connection but not yet the message holds the client: ten seconds, then again.
                let sent = try? await ChildProcess.run("timeout", ["10", "mosquitto_pub", "-p", "\(mqttPorts[index])", "-i", "probe-\(index)", "-c",
                                                                   "-q", "1", "-t", "probe/ready", "-m", "ready"])
                return sent?.status == 0
            }
            guard taken else {
                throw ChildProcess.Failure(message: "nats-server s\(index) never took a message: \(servers[index]?.errorsSoFar.suffix(1500) ?? "")")
            }
        }
    }

    /// The next message on a topic from server `index` (a retained one at once), or `nil` within `seconds`.
    func next(on topic: String, from index: Int, within seconds: Int = 120) async throws -> String? {
        let read = try await ChildProcess.run("mosquitto_sub", ["-p", "\(mqttPorts[index])", "-t", topic, "-C", "1", "-W", "\(seconds)"])
        return read.status == 0 ? read.standardOutput.trimmingCharacters(in: .newlines) : nil
    }

    deinit {
        for server in servers { server?.send(SIGKILL) }
    }
}
