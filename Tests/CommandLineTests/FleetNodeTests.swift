import Foundation
import Glibc
import TestSupport
import Testing

/// A mosquitto broker of the test's own on a free port, ended with the value.
final class Broker {
    let port: Int
    private var process: ChildProcess.Running

    static var isAvailable: Bool { ["mosquitto", "mosquitto_pub", "mosquitto_sub"].allSatisfy(ChildProcess.isInstalled) }

    init() async throws {
        var port = 0
        var started: ChildProcess.Running?
        for candidate in (0..<20).map({ _ in Int.random(in: 20000...45000) }) {
            let broker = try ChildProcess.Running("/usr/sbin/mosquitto", ["-p", "\(candidate)"])
            // Listening once it says it runs; a port taken (by another test's broker, which a
            // client's probe would reach as well) makes it say so and end. Its own words tell which.
            let said = await until(every: .milliseconds(50), hangGuard: .seconds(30)) {
                broker.errorsSoFar.contains(" running") || broker.errorsSoFar.contains("Error:")
            }
            if said, broker.errorsSoFar.contains(" running"), !broker.errorsSoFar.contains("Error:") {
                (port, started) = (candidate, broker)
                break
            }
            broker.send(SIGKILL)
        }
        guard let started else { throw ChildProcess.Failure(message: "no broker could start") }
        (self.port, process) = (port, started)
    }

    /// Stops the broker (its retained messages go with it, as it keeps none on disk).
    func stop() async {
        process.send(SIGKILL)
        _ = await process.finished(timeout: 60)
    }

    /// Starts the stopped broker again on the same port.
    func start() throws {
        process = try ChildProcess.Running("/usr/sbin/mosquitto", ["-p", "\(port)"])
    }

    /// The next message on a topic (a retained one at once), or `nil` within `seconds`: unless told
    /// a short time to poll in, a hang guard of two minutes, never a measure of speed.
    func next(on topic: String, within seconds: Int = 120) async throws -> String? {
        let read = try await ChildProcess.run("mosquitto_sub", ["-p", "\(port)", "-t", topic, "-C", "1", "-W", "\(seconds)"])
        return read.status == 0 ? read.standardOutput.trimmingCharacters(in: .newlines) : nil
    }

    func publish(_ topic: String, _ payload: String, retained: Bool = false) async throws {
        _ = try await ChildProcess.run("mosquitto_pub", ["-p", "\(port)", "-t", topic, "-m", payload] + (retained ? ["-r"] : []))
    }

    /// Watches topics from now on; what came is the watcher's output so far, a line each (`topic payload`).
    /// Returns once the watcher is subscribed: it has seen a probe published on `probe`, a topic
    /// its filter matches. End it with SIGKILL: a child of the tests starts with the signals the
    /// tests' threads block blocked, SIGTERM among them.
    func watch(_ filter: String, probe: String) async throws -> ChildProcess.Running {
        let watcher = try ChildProcess.Running("/usr/bin/mosquitto_sub", ["-p", "\(port)", "-t", filter, "-v"])
        let subscribed = await until {
            try? await publish(probe, #"{"event": "probe"}"#)
            return await watcher.output(containing: "\(probe) ", timeout: 1)
        }
        guard subscribed else {
            watcher.send(SIGKILL)
            throw ChildProcess.Failure(message: "mosquitto_sub never subscribed to \(filter)")
        }
        return watcher
    }

    deinit {
        process.send(SIGKILL)
    }
}

@Suite("camctl serve as a node of a fleet", .hangGuard(minutes: 2))
struct FleetNodeTests {
    /// The JSON objects of a watcher's lines.
    static func events(_ watcher: ChildProcess.Running) -> [[String: Any]] {
        watcher.outputSoFar.split(separator: "\n").compactMap { line in
            line.split(separator: " ", maxSplits: 1).last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }

    @Test("A node keeps a retained status, runs each command once, publishes its photo with checksum and link, and refuses bad commands",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func node() async throws {
        let broker = try await Broker()
        let served = try await ServedCamera(extra: ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "booths", "--node", "a"])
        var status = ""
        #expect(await until {
            status = (try? await broker.next(on: "camctl/booths/a/status", within: 1)) ?? ""
            return status.contains("online")
        }, "the node says it is online")
        #expect(status.contains("\"state\":\"online\"") && status.contains("\"device\":\"Test camera (smpte)\""), "\(status)")
        #expect(status.contains("\"clock\":{") && status.contains("\"max_error_s\":") && status.contains("\"version\":1") && status.contains("\"camctl_version\":"), "\(status)")

        let watcher = try await broker.watch("camctl/booths/a/events", probe: "camctl/booths/a/events")
        let command = #"{"id": "c1", "action": "capture", "expires_at": \#(Date().timeIntervalSince1970 + 600)}"#
        try await broker.publish("camctl/booths/command", command)
        #expect(await until { Self.events(watcher).contains { $0["event"] as? String == "result" } }, "the command's result")
        try await broker.publish("camctl/booths/a/command", command)  // the same id again
        let expired = Date().timeIntervalSince1970 - 5
        try await broker.publish("camctl/booths/a/command", #"{"id": "c2", "action": "capture", "expires_at": \#(expired)}"#)
        try await broker.publish("camctl/booths/a/command", "not json")
        try await broker.publish("camctl/booths/a/command", #"{"id": "c3", "action": "fly", "expires_at": \#(Date().timeIntervalSince1970 + 600)}"#)
        try await broker.publish("camctl/booths/a/command", #"{"id": "c5", "action": "capture"}"#)  // no expiry: a replay could run it again
        try await broker.publish("camctl/booths/a/command", #"{"id": "c4", "pad": "\#(String(repeating: "x", count: 70_000))"}"#)
        #expect(await until { Self.events(watcher).filter { $0["event"] as? String == "error" }.count >= 6 }, "six refusals")
        watcher.send(SIGKILL)
        let events = Self.events(watcher)
        let result = try #require(events.first { $0["event"] as? String == "result" && $0["id"] as? String == "c1" }, "\(events)")
        #expect(result["outcome"] as? String == "photos")
        let photo = try #require(events.first { $0["event"] as? String == "photo" }, "\(events)")
        let url = try #require(photo["url"] as? String), sha256 = try #require(photo["sha256"] as? String)
        #expect(url.hasPrefix(served.base + "/p/1-"))
        let downloaded = try await ChildProcess.run("sh", ["-c", "curl -s '\(url)' | sha256sum"]).standardOutput
        #expect(downloaded.hasPrefix(sha256), "the download's checksum is the event's")
        let errors = events.filter { $0["event"] as? String == "error" }.map { "\($0["status"] ?? "") \($0["id"] ?? "")" }
        #expect(Set(errors) == ["409 c1", "410 c2", "400 <null>", "400 c3", "413 <null>", "400 c5"], "\(errors)")
        #expect(try await served.camctl.photos().count == 1, "each command ran once")

        // Killed, its last will says it is offline.
        served.process.send(SIGKILL)
        _ = await served.process.finished(timeout: 120)
        var last = ""
        #expect(await until {
            last = (try? await broker.next(on: "camctl/booths/a/status", within: 1)) ?? ""
            return last.contains("offline")
        })
        #expect(last.contains("\"state\":\"offline\""), "\(last)")
    }

    @Test("A node whose broker goes away says so, reconnects when it is back, and announces itself again; stopped, it says it is offline",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func reconnects() async throws {
        let broker = try await Broker()
        let served = try await ServedCamera(extra: ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "booths", "--node", "b"])
        #expect(try await broker.next(on: "camctl/booths/b/status")?.contains("online") == true)
        // Started again once the node has seen it go.
        await broker.stop()
        #expect(await until { served.process.errorsSoFar.contains("the broker is not connected") }, "\(served.process.errorsSoFar)")
        try broker.start()
        var status = ""
        _ = await until {
            status = (try? await broker.next(on: "camctl/booths/b/status", within: 1)) ?? ""
            return status.contains("online")
        }
        #expect(status.contains("\"state\":\"online\""), "announced again on the new broker: \(status)")
        let result = await served.stop()
        #expect(result.status == 0)
        #expect(result.standardError.contains("the broker is not connected") && result.standardError.contains("the broker is connected"),
                "\(result.standardError)")
        // Its own goodbye is no lost connection: the last line says the broker is connected.
        let notes = result.standardError.split(separator: "\n").filter { $0.contains("the broker") }
        #expect(notes.last?.contains("the broker is connected") == true, "\(result.standardError)")
        #expect(try await broker.next(on: "camctl/booths/b/status")?.contains("\"state\":\"offline\"") == true, "it said goodbye")
    }

    @Test("Two compositions sent to a node at once: one composed, the other refused with 409; the node lives on and answers",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func composeTwiceOverMQTT() async throws {
        let broker = try await Broker()
        let served = try await ServedCamera(extra: ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "booths", "--node", "a"])
        defer { served.process.send(SIGTERM) }
        let watcher = try await broker.watch("camctl/booths/a/events", probe: "camctl/booths/a/events")
        defer { watcher.send(SIGKILL) }
        let expiry = Date().timeIntervalSince1970 + 600
        for shot in 1...2 {
            try await broker.publish("camctl/booths/a/command", #"{"id": "shot\#(shot)", "action": "capture", "expires_at": \#(expiry)}"#)
        }
        #expect(await until { Self.events(watcher).filter { $0["event"] as? String == "result" }.count == 2 }, "both shots taken")
        for id in ["compose1", "compose2"] {
            try await broker.publish("camctl/booths/a/command", #"{"id": "\#(id)", "action": "compose", "expires_at": \#(expiry)}"#)
        }
        func answers() -> [[String: Any]] {
            Self.events(watcher).filter { ($0["id"] as? String)?.hasPrefix("compose") == true && ["result", "error"].contains($0["event"] as? String ?? "") }
        }
        #expect(await until { answers().count == 2 }, "\(Self.events(watcher))")
        let kinds = answers().map { "\($0["event"] ?? "") \($0["status"] ?? $0["outcome"] ?? "")" }.sorted()
        #expect(kinds == ["error 409", "result composed"], "\(kinds)")
        let status = try await served.json("/api/status").status
        #expect(!served.process.hasEnded && status == 200, "the node lives on")
    }

    @Test("A command's id is kept in the library until the command expires: a restarted node refuses it again; one expiring too far ahead is refused",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func replayAfterRestart() async throws {
        let broker = try await Broker()
        let options = ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "booths", "--node", "a"]
        let first = try await ServedCamera(extra: options)
        let watcher = try await broker.watch("camctl/booths/a/events", probe: "camctl/booths/a/events")
        defer { watcher.send(SIGKILL) }
        func events(_ id: String, _ kind: String) -> [[String: Any]] {
            Self.events(watcher).filter { $0["id"] as? String == id && $0["event"] as? String == kind }
        }
        let command = #"{"id": "once", "action": "capture", "expires_at": \#(Date().timeIntervalSince1970 + 3600)}"#
        try await broker.publish("camctl/booths/a/command", command)
        #expect(await until { !events("once", "result").isEmpty }, "the command ran")
        first.process.send(SIGKILL)
        _ = await first.process.finished(timeout: 30)

        let again = try await ServedCamera(camctl: first.camctl, extra: options)
        defer { again.process.send(SIGTERM) }
        // Sent until the restarted node has subscribed and answers: each time it is the same command.
        #expect(await until {
            try? await broker.publish("camctl/booths/a/command", command)
            return !events("once", "error").isEmpty
        }, "the restarted node answered")
        #expect(events("once", "error").allSatisfy { $0["status"] as? Int == 409 }, "\(events("once", "error"))")
        let far = Date().timeIntervalSince1970 + 2 * 86_400
        try await broker.publish("camctl/booths/a/command", #"{"id": "far", "action": "capture", "expires_at": \#(far)}"#)
        #expect(await until { !events("far", "error").isEmpty })
        #expect(events("far", "error").first?["status"] as? Int == 400, "\(events("far", "error"))")
        #expect(try await again.camctl.photos().count == 1, "the command ran once")
    }

    @Test("Three nodes asked ahead for one instant, ten times, each take a photo of it, not of the command's arrival, as the events and the files' EXIF both say; an instant past is refused",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func synchronized() async throws {
        let broker = try await Broker()
        let names = ["a", "b", "c"]
        var nodes: [ServedCamera] = []
        for name in names {
            nodes.append(try await ServedCamera(extra: ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "rig", "--node", name]))
        }
        defer { for node in nodes { node.process.send(SIGTERM) } }
        for name in names {
            try #require(await until { (try? await broker.next(on: "camctl/rig/\(name)/status", within: 1))?.contains("online") == true },
                         "\(name) says it is online")
        }
        let watcher = try await broker.watch("camctl/rig/+/events", probe: "camctl/rig/probe/events")
        defer { watcher.send(SIGKILL) }
        // Which frame each node takes (its frame nearest the instant) is FrameInstantTests' to
        // check, by frame numbers; how near in milliseconds, and how far apart the nodes' frames,
        // are benchmark rows (camctl-bench's fleet rows, with scripts/fleet-probe.py). Here: each
        // node takes one photo for each round, of the asked instant two seconds ahead, not of the
        // command's arrival (which would be about two seconds before it).
        var offsets: [Double] = [], files: [(path: String, microseconds: Int)] = []
        for round in 0..<10 {
            // Asked two seconds ahead: time enough for the command to reach a busy node.
            let instant = Date().timeIntervalSince1970 + 2
            try await broker.publish("camctl/rig/command", #"{"id": "r\#(round)", "action": "capture", "at": \#(instant), "expires_at": \#(instant + 2)}"#)
            func results() -> [[String: Any]] {
                Self.events(watcher).filter { $0["event"] as? String == "result" && $0["id"] as? String == "r\(round)" }
            }
            #expect(await until { results().count == names.count }, "every node answered round \(round): \(results())")
            let photos = results().compactMap { ($0["photos"] as? [[String: Any]])?.first }
            let instants = photos.compactMap { $0["captured_at_us"] as? Int }
            #expect(instants.count == names.count, "every node took a photo in round \(round)")
            files += photos.compactMap { photo in (photo["path"] as? String).flatMap { path in (photo["captured_at_us"] as? Int).map { (path, $0) } } }
            offsets += instants.map { Double($0) / 1000 - instant * 1000 }
        }
        #expect(offsets.count == 10 * names.count && offsets.allSatisfy { abs($0) < 1000 },
                "photos of the asked instant, not of the command's arrival 2 s before it; ms from it: \(offsets.map { Int($0) })")

        // The files say the same instants: EXIF DateTimeOriginal with SubSecTimeOriginal (milliseconds) and OffsetTimeOriginal.
        let read = try await ChildProcess.run("exiftool", ["-j", "-SubSecDateTimeOriginal"] + files.map(\.path))
        let stamps = (try JSONSerialization.jsonObject(with: Data(read.standardOutput.utf8)) as? [[String: Any]]) ?? []
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss.SSSXXXXX"
        #expect(stamps.count == files.count)
        for (file, stamp) in zip(files, stamps) {
            let date = (stamp["SubSecDateTimeOriginal"] as? String).flatMap(formatter.date)
            // EXIF keeps whole milliseconds (cut, not rounded) of the instant the event gives in
            // rounded microseconds: up to a millisecond apart, and a microsecond for the rounding.
            #expect(date.map { abs($0.timeIntervalSince1970 * 1e6 - Double(file.microseconds)) <= 1001 } == true,
                    "\(file.path): \(stamp) against \(file.microseconds) µs")
        }

        try await broker.publish("camctl/rig/command", #"{"id": "late", "action": "capture", "at": \#(Date().timeIntervalSince1970 - 5), "expires_at": \#(Date().timeIntervalSince1970 + 60)}"#)
        func refusals() -> [[String: Any]] {
            Self.events(watcher).filter { $0["event"] as? String == "error" && $0["id"] as? String == "late" }
        }
        #expect(await until { refusals().count == names.count }, "\(refusals())")
        #expect(refusals().count == names.count && refusals().allSatisfy { ($0["error"] as? String)?.contains("no photo was taken") == true }, "\(refusals())")
    }

    @Test("camctl fleet lists the nodes and takes a synchronized photo on each; a node that does not answer is named, exit 69",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func controller() async throws {
        let broker = try await Broker()
        var nodes: [ServedCamera] = []
        for name in ["a", "b"] {
            nodes.append(try await ServedCamera(extra: ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "pair", "--node", name]))
        }
        defer { for node in nodes { node.process.send(SIGCONT); node.process.send(SIGTERM) } }
        for name in ["a", "b"] {
            try #require(await until { (try? await broker.next(on: "camctl/pair/\(name)/status", within: 1))?.contains("online") == true },
                         "\(name) says it is online")
        }
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let fleet = ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "pair"]
        let listed = try await ChildProcess.run(camctl, ["fleet", "list"] + fleet + ["--json"])
        let listedNodes = Camctl.objects(listed.standardOutput)
        #expect(listedNodes.compactMap { $0["node"] as? String } == ["a", "b"], "\(listed.standardOutput)")
        // Each node says whether its clock is synchronized; the controller warns of one that is not.
        let synchronized = listedNodes.compactMap { $0["clock_synchronized"] as? Bool }
        #expect(synchronized.count == 2)
        #expect(listed.standardError.contains("a's clock is not synchronized") == (synchronized.first == false), "\(listed.standardError)")

        let captured = try await ChildProcess.run(camctl, ["fleet", "capture"] + fleet + ["--at", "2", "--json"])
        #expect(captured.status == 0, "\(captured.standardError)")
        let objects = Camctl.objects(captured.standardOutput)
        // Each node's photo is of the instant asked two seconds ahead, not of the command's arrival
        // (how near, and the skew between nodes, are benchmark rows; which frame, FrameInstantTests').
        let offsets = objects.compactMap { $0["offset_ms"] as? Double }
        #expect(offsets.count == 2 && offsets.allSatisfy { abs($0) < 1000 }, "\(captured.standardOutput)")
        #expect((objects.last?["skew_ms"] as? Double).map { $0 >= 0 } == true, "the skew is told: \(captured.standardOutput)")
        for node in nodes { #expect(try await node.camctl.photos().count == 1) }

        nodes[1].process.send(SIGSTOP)  // b hangs: online in its status, silent
        let partial = try await ChildProcess.run(camctl, ["fleet", "capture"] + fleet + ["--at", "0.5", "--timeout", "2"])
        #expect(partial.status == 69)
        #expect(partial.standardError.hasSuffix("camctl: b did not answer in time; their photos were not taken\n"), "\(partial.standardError)")
    }
}
