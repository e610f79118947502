import Foundation
import Glibc
import TestSupport
import Testing

/// A fleet given several brokers (`--broker mqtt://A,B`): a node and a controller whose broker is
/// gone go on through the next.
@Suite("A fleet with a second broker to fail over to", .startsPrograms, .hangGuard(minutes: 3),
       .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
struct BrokerFailoverTests {
    @Test("Its first broker killed, a node fails over to the second and says it is online there; a controller given both finds the first gone and captures through the second")
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
}
