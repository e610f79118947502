import Foundation
import Glibc
import TestSupport
import Testing

/// A fleet given several brokers (`--broker mqtt://A,B`): a node and a controller whose broker is
/// gone go on through the next.
@Suite("A fleet with a second broker to fail over to", .startsPrograms, .hangGuard(minutes: 5))
struct BrokerFailoverTests {
    @Test("Its first broker killed, a node fails over to the second and says it is online there; a controller given both finds the first gone and captures through the second",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func secondBroker() async throws {
        let (first, second) = (try await Broker(), try await Broker())
        let brokers = "mqtt://127.0.0.1:\(first.port),127.0.0.1:\(second.port)"
        let node = try await ServedCamera(extra: ["--broker", brokers, "--fleet", "pair", "--node", "a"])
        defer { node.process.send(SIGTERM) }
        let camctl = FleetCollectTests.camctl
        let fleet = ["--broker", brokers, "--fleet", "pair", "--nodes", "1", "--timeout", "60", "--json"]
        let before = try await ChildProcess.run(camctl, ["fleet", "capture"] + fleet)
        #expect(before.status == 0 && Camctl.objects(before.standardOutput).last?["photos"] as? Int == 1, "\(before.standardOutput) \(before.standardError)")

        await first.stop()
        #expect(await node.process.errors(containing: "the broker is not connected"), "the node saw its broker go")
        #expect(await until { (try? await second.next(on: "camctl/pair/a/status", within: 1))?.contains("online") == true },
                "the node says it is online on the second broker: \(node.process.errorsSoFar.suffix(600))")
        let after = try await ChildProcess.run(camctl, ["fleet", "capture"] + fleet)
        #expect(after.status == 0 && Camctl.objects(after.standardOutput).last?["photos"] as? Int == 1, "\(after.standardOutput) \(after.standardError)")
        #expect(try await node.camctl.photos().count == 2)
    }

    @Test("A nats-server cluster loses the server a node is on while a capture's command is out: the node goes on through another server, and neither the command nor its answer is lost; with the server back, a controller through it captures on every node",
          .enabled(if: NatsCluster.isAvailable, "needs nats-server and mosquitto-clients"))
    func natsCluster() async throws {
        let cluster = try await NatsCluster()
        // Each node and the controller starts on a server of its own.
        let a = try await ServedCamera(extra: ["--broker", cluster.brokers(from: 0), "--fleet", "trio", "--node", "a"])
        defer { a.process.send(SIGTERM) }
        let b = try await ServedCamera(extra: ["--broker", cluster.brokers(from: 1), "--fleet", "trio", "--node", "b"])
        defer { b.process.send(SIGTERM) }
        for node in ["a", "b"] {
            #expect(await until { (try? await cluster.next(on: "camctl/trio/\(node)/status", from: 2, within: 1))?.contains("online") == true },
                    "\(node) says it is online, read from another server")
        }
        let commands = try ChildProcess.Running("/usr/bin/mosquitto_sub", ["-p", "\(cluster.mqttPorts[2])", "-t", "camctl/trio/command", "-v"])
        defer { commands.send(SIGKILL) }
        // Generous: the server lost, nats-server moves what it led before it delivers the command
        // kept for a (about 10 s here, and once over a minute beside a parallel build).
        let fleet = ["--fleet", "trio", "--nodes", "2", "--timeout", "150", "--json"]
        let capture = try ChildProcess.Running(FleetCollectTests.camctl, ["fleet", "capture", "--broker", cluster.brokers(from: 2), "--at", "5"] + fleet)
        defer { capture.send(SIGKILL) }
        // The command is out: a's server is lost before the instant.
        #expect(await commands.output(containing: "camctl/trio/command "))
        await cluster.kill(0)
        let captured = await capture.finished(timeout: 240)
        #expect(captured.status == 0 && Camctl.objects(captured.standardOutput).last?["photos"] as? Int == 2,
                "\(captured.standardOutput) \(captured.standardError) \(a.process.errorsSoFar.suffix(800))")
        #expect(a.process.errorsSoFar.contains("the broker is not connected"), "a saw its server go")

        try cluster.start(0)
        try await cluster.ready()
        let again = try await ChildProcess.run(FleetCollectTests.camctl, ["fleet", "capture", "--broker", cluster.brokers(from: 0), "--at", "2"] + fleet)
        #expect(again.status == 0 && Camctl.objects(again.standardOutput).last?["photos"] as? Int == 2, "\(again.standardOutput) \(again.standardError)")
        let (photosOfA, photosOfB) = (try await a.camctl.photos().count, try await b.camctl.photos().count)
        #expect(photosOfA == 2 && photosOfB == 2)
    }
}
