import Foundation
import Glibc
import TestSupport
import Testing

/// A rig of camctl nodes, each in a network namespace of its own behind a rate-limited link
/// (`scripts/rig`): captures across it while a node is killed and the broker restarted, then one
/// collection that has every photo the nodes reported.
@Suite("A rig of nodes on their own network (scripts/rig)", .startsPrograms,
       .enabled(if: getuid() == 0 && Broker.isAvailable && ChildProcess.isInstalled("ip") && ChildProcess.isInstalled("tc"),
                "needs root, iproute2, mosquitto and mosquitto-clients"))
struct RigTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/rig").path

    /// The rig's answer to one line of its input: the next JSON object it prints.
    static func ask(_ rig: ChildProcess.Running, _ line: String) async throws -> [String: Any] {
        let before = Camctl.objects(rig.outputSoFar).count
        rig.write(line + "\n")
        try #require(await until { Camctl.objects(rig.outputSoFar).count > before }, "the rig answers \(line): \(rig.errorsSoFar)")
        return Camctl.objects(rig.outputSoFar)[before]
    }

    /// The nodes' photos a capture reported saved, by node.
    static func reported(_ output: String) -> [String: Int] {
        Camctl.objects(output).compactMap { $0["path"] as? String == nil ? nil : $0["node"] as? String }
            .reduce(into: [:]) { $0[$1, default: 0] += 1 }
    }

    @Test("Captures across three namespaced nodes while one is killed (told offline at once) and started again and the broker is restarted: every photo a node reported is collected once, checked")
    func killedNodeAndRestartedBroker() async throws {
        let camctl = FleetCollectTests.camctl
        let rig = try ChildProcess.Running(Self.script, ["--nodes", "3", "--camctl", camctl], writingInput: true)
        defer { rig.send(SIGTERM) }  // taken down on every path
        try #require(await rig.output(containing: #""ready": true"#), "\(rig.errorsSoFar)")
        let ready = try #require(Camctl.objects(rig.outputSoFar).first)
        let broker = try #require(ready["broker"] as? String), folder = try #require(ready["folder"] as? String)
        let id = try #require(ready["id"] as? String)
        let fleet = ["--broker", broker, "--fleet", "rig", "--json"]
        var saved: [String: Int] = [:]
        func capture(nodes: Int) async throws {
            let ran = try await Self.ask(rig, "run \(camctl) fleet capture --nodes \(nodes) --timeout 60 " + fleet.joined(separator: " "))
            let output = ran["output"] as? String ?? ""
            #expect(ran["status"] as? Int == 0 && Self.reported(output).count == nodes, "\(ran)")
            saved.merge(Self.reported(output)) { $0 + $1 }
        }
        try await capture(nodes: 3)
        #expect(try await Self.ask(rig, "kill n2")["done"] as? String == "kill n2")
        // Its connection closed with it, the broker publishes its will at once: offline, so not asked.
        let address = try #require(URL(string: broker.replacingOccurrences(of: "mqtt://", with: "http://")))
        let status = "run mosquitto_sub -h \(address.host ?? "") -p \(address.port ?? 0) -t camctl/rig/n2/status -C 1 -W 5"
        #expect(await until { ((try? await Self.ask(rig, status))?["output"] as? String)?.contains("offline") == true }, "n2 is told offline")
        try await capture(nodes: 2)
        #expect(try await Self.ask(rig, "restart-broker")["done"] as? String == "restart-broker")
        try await capture(nodes: 2)
        #expect(try await Self.ask(rig, "start n2")["done"] as? String == "start n2")
        try await capture(nodes: 3)
        #expect(saved["n1"] == 4 && saved["n3"] == 4 && saved["n2"] == 2, "\(saved)")

        let collected = try await Self.ask(rig, "run \(camctl) fleet collect --nodes 3 --timeout 60 --into \(folder)/all " + fleet.joined(separator: " "))
        #expect(collected["status"] as? Int == 0, "\(collected)")
        let records = Camctl.objects(collected["output"] as? String ?? "")
        let kept = records.filter { $0["result"] as? String == "collected" }.compactMap { $0["node"] as? String }
            .reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        #expect(kept == saved, "every photo reported saved is collected, once: \(kept) against \(saved)")

        rig.closeInput()  // nothing more: the input ends, and the rig is taken down
        #expect(await rig.finished(timeout: 120).status == 0)
        let namespaces = try await ChildProcess.run("/usr/sbin/ip", ["netns", "list"])
        #expect(!namespaces.standardOutput.contains("camctl-rig-\(id)-"), "every namespace removed: \(namespaces.standardOutput)")
        let links = try await ChildProcess.run("/usr/sbin/ip", ["-o", "link"])
        #expect(!links.standardOutput.contains(": cr\(id)"), "every link removed")
    }

    /// A capture while the server is away is left out: nats-server 2.9.10 serves no retained
    /// message (the nodes' statuses) for seconds to minutes after losing a server, so a controller
    /// started then finds no node (README says so). A capture whose command is out when the server
    /// goes is `BrokerFailoverTests.natsCluster`'s.
    @Test("A rig on a nats-server cluster of three: the server the first node is on is lost and brought back between captures across three namespaced nodes; each capture has every node's photo, and one collection has them all",
          .enabled(if: NatsCluster.isAvailable, "needs nats-server"))
    func natsClusterLosingAServer() async throws {
        let camctl = FleetCollectTests.camctl
        let rig = try ChildProcess.Running(Self.script, ["--nodes", "3", "--camctl", camctl, "--broker", "nats"], writingInput: true)
        defer { rig.send(SIGTERM) }  // taken down on every path
        try #require(await rig.output(containing: #""ready": true"#), "\(rig.errorsSoFar)")
        let ready = try #require(Camctl.objects(rig.outputSoFar).first)
        let broker = try #require(ready["broker"] as? String), folder = try #require(ready["folder"] as? String)
        #expect(broker.split(separator: ",").count == 3, "the controller is given the three servers: \(broker)")
        let fleet = ["--broker", broker, "--fleet", "rig", "--json"]
        var saved: [String: Int] = [:]
        func capture() async throws {
            // Five seconds ahead: a cluster's delivery (each message kept in JetStream first) took
            // over two on a machine running the whole suite, past a command's expiry a second after its instant.
            let ran = try await Self.ask(rig, "run \(camctl) fleet capture --nodes 3 --timeout 60 --at 5 " + fleet.joined(separator: " "))
            let output = ran["output"] as? String ?? ""
            #expect(ran["status"] as? Int == 0 && Self.reported(output).count == 3, "\(ran)")
            saved.merge(Self.reported(output)) { $0 + $1 }
        }
        try await capture()
        #expect(try await Self.ask(rig, "kill-server 1")["done"] as? String == "kill-server 1")
        #expect(try await Self.ask(rig, "start-server 1")["done"] as? String == "start-server 1")
        try await capture()
        #expect(saved == ["n1": 2, "n2": 2, "n3": 2], "\(saved)")

        let collected = try await Self.ask(rig, "run \(camctl) fleet collect --nodes 3 --timeout 60 --into \(folder)/all " + fleet.joined(separator: " "))
        #expect(collected["status"] as? Int == 0, "\(collected)")
        let kept = Camctl.objects(collected["output"] as? String ?? "").filter { $0["result"] as? String == "collected" }
            .compactMap { $0["node"] as? String }.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        #expect(kept == saved, "every photo reported saved is collected, once: \(kept) against \(saved)")
        rig.closeInput()
        #expect(await rig.finished(timeout: 120).status == 0)
    }
}
