import Foundation
import Glibc
import TestSupport
import Testing

@Suite("A fleet's photos collected in one place", .hangGuard(minutes: 3))
struct FleetCollectTests {
    static let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path

    /// Starts a node and waits until its status says online.
    static func node(_ name: String, fleet: String, broker: Broker, camctl: Camctl? = nil) async throws -> ServedCamera {
        let node = try await ServedCamera(camctl: camctl, extra: ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", fleet, "--node", name])
        // Asked again each second (a status published before the subscription is the retained one),
        // until a hang guard far past any machine's start.
        guard await until({ (try? await broker.next(on: "camctl/\(fleet)/\(name)/status", within: 1))?.contains("\"online\"") == true }) else {
            throw ChildProcess.Failure(message: "node \(name) never said it was online")
        }
        return node
    }

    @Test("A node killed during a series of captures: the others take every one; collect then has every photo reported saved, once; the restarted node refuses the old commands",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func killedNode() async throws {
        let broker = try await Broker()
        var nodes: [String: ServedCamera] = [:]
        for name in ["a", "b", "c"] { nodes[name] = try await Self.node(name, fleet: "rig", broker: broker) }
        defer { for node in nodes.values { node.process.send(SIGTERM) } }
        let watcher = try await broker.watch("camctl/rig/+/events", probe: "camctl/rig/probe/events")
        defer { watcher.send(SIGKILL) }
        func results(of node: String, round: Int? = nil) -> Int {
            watcher.outputSoFar.split(separator: "\n").filter { line in
                line.hasPrefix("camctl/rig/\(node)/events ") && line.contains("\"event\":\"result\"")
                    && round.map { line.contains("\"id\":\"s\($0)\"") } ?? true
            }.count
        }

        var commands: [String] = []
        for round in 0..<6 {
            if round == 3 {
                nodes["c"]?.process.send(SIGKILL)
                _ = await nodes["c"]?.process.finished(timeout: 120)
            }
            // Asked two seconds ahead: time enough for the command to reach a busy node.
            let instant = Date().timeIntervalSince1970 + 2
            let command = #"{"id": "s\#(round)", "action": "capture", "at": \#(instant), "expires_at": \#(instant + 2)}"#
            commands.append(command)
            try await broker.publish("camctl/rig/command", command)
            // Every node still running answers, c too before it is killed.
            let answering = round < 3 ? ["a", "b", "c"] : ["a", "b"]
            #expect(await until { answering.allSatisfy { results(of: $0, round: round) == 1 } }, "\(answering) answered round \(round)")
        }
        #expect(results(of: "a") == 6 && results(of: "b") == 6, "a and b took every capture")
        #expect(await until { (try? await broker.next(on: "camctl/rig/c/status", within: 1))?.contains("\"offline\"") == true },
                "c's last will says it is offline")

        // Restarted on its library, c rejoins, and the old commands are refused, not run late.
        nodes["c"] = try await Self.node("c", fleet: "rig", broker: broker, camctl: nodes["c"]?.camctl)
        let restarted = try #require(nodes["c"])
        let photosOfC = try await restarted.camctl.photos().count
        for command in commands { try await broker.publish("camctl/rig/c/command", command) }
        func refusals() -> Int {
            watcher.outputSoFar.split(separator: "\n").filter { $0.hasPrefix("camctl/rig/c/events ") && $0.contains("\"event\":\"error\"") }.count
        }
        #expect(await until { refusals() == commands.count }, "the restarted node refused each old command, expired or too late")
        #expect(try await restarted.camctl.photos().count == photosOfC, "and took no photo for them")

        // Every photo any node reported saved is collected, once; a second collect finds nothing new.
        let reported = Set(watcher.outputSoFar.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("\"event\":\"photo\""), let node = line.split(separator: "/").dropFirst(2).first,
                  let object = try? JSONSerialization.jsonObject(with: Data(line.split(separator: " ", maxSplits: 1)[1].utf8)) as? [String: Any],
                  let sha256 = object["sha256"] as? String else { return nil }
            return "\(node)/\(sha256)"
        })
        #expect(reported.count >= 12 + 3)
        let target = try TemporaryFolder()
        let fleet = ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "rig"]
        let collected = try await ChildProcess.run(Self.camctl, ["fleet", "collect", "--into", target.url.path, "--json"] + fleet)
        #expect(collected.status == 0, "\(collected.standardError)")
        var kept: [String] = []
        for node in ["a", "b", "c"] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: target.path(node))) ?? [] {
                let sum = try await ChildProcess.run("sha256sum", [target.path("\(node)/\(name)")]).standardOutput
                kept.append("\(node)/\(sum.prefix(64))")
            }
        }
        #expect(reported.isSubset(of: Set(kept)), "0 lost: \(reported.subtracting(kept))")
        #expect(Set(kept).count == kept.count, "none twice")
        var inLibraries = 0
        for node in nodes.values { inLibraries += try await node.camctl.photos().count }
        #expect(kept.count == inLibraries, "every node's every photo")

        let again = try await ChildProcess.run(Self.camctl, ["fleet", "collect", "--into", target.url.path, "--json"] + fleet)
        #expect(again.status == 0)
        let summary = Camctl.objects(again.standardOutput).last ?? [:]
        #expect(summary["collected"] as? Int == 0 && summary["had"] as? Int == kept.count, "\(again.standardOutput)")

        // A collection cut short goes on where it stopped: the photos missing are fetched, no more.
        let missing = try FileManager.default.contentsOfDirectory(atPath: target.path("b")).prefix(2)
        for name in missing { try FileManager.default.removeItem(atPath: target.path("b/\(name)")) }
        let resumed = try await ChildProcess.run(Self.camctl, ["fleet", "collect", "--into", target.url.path, "--json"] + fleet)
        #expect(Camctl.objects(resumed.standardOutput).compactMap { $0["path"] as? String }.sorted() == missing.map { target.path("b/\($0)") }.sorted())

        // Into a library: each photo once, in an album named after its node.
        let central = try Camctl()
        for _ in 0..<2 {
            let result = try await ChildProcess.run(Self.camctl, ["fleet", "collect", "--library", central.library.url.path] + fleet)
            #expect(result.status == 0, "\(result.standardError)")
        }
        let photos = try await central.photos()
        #expect(photos.count == kept.count)
        #expect(Set(photos.flatMap { $0["albums"] as? [String] ?? [] }) == ["a", "b", "c"])
    }

    @Test("The README's three commands start a broker and two nodes and collect a synchronized pair into one library",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func readmeRecipe() async throws {
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../README.md"), encoding: .utf8)
        let block = try #require(readme.firstMatch(of: /<!-- fleet-recipe -->\n```sh\n(?<lines>[^`]*)```\n<!-- end -->/)).lines
        let lines = block.split(separator: "\n")
        #expect(lines.count == 3, "three commands")
        let folder = try TemporaryFolder()
        let port = Int.random(in: 46000...60000)
        let script = String(block).replacingOccurrences(of: "1883", with: "\(port)")
            .replacingOccurrences(of: "/tmp/fleet", with: folder.url.path)
            .replacingOccurrences(of: "camctl ", with: Self.camctl + " ")
        defer {
            _ = try? ChildProcess.runToEnd("pkill", ["-f", "mosquitto -d -p \(port)"])
            _ = try? ChildProcess.runToEnd("pkill", ["-f", folder.url.path])
        }
        // Through Python, which gives the shell no descriptor but the standard three: the nodes and
        // the broker left running would otherwise hold the one by which the tests see a child end.
        let shell = "import subprocess, sys; sys.exit(subprocess.run(['sh', '-c', sys.argv[1]]).returncode)"
        let ran = try await ChildProcess.run("/usr/bin/python3", ["-c", shell, "(\(script)) > \(folder.path("output")) 2>&1"])
        let output = try String(contentsOfFile: folder.path("output"), encoding: .utf8)
        #expect(ran.status == 0, "\(output)")
        #expect(output.contains("skew"), "\(output)")
        let central = try await ChildProcess.run(Self.camctl, ["library", "list", "--json"], environment: ["CAMCTL_LIBRARY": folder.path("all")])
        let photos = Camctl.objects(central.standardOutput)
        #expect(photos.count == 2 && Set(photos.flatMap { $0["albums"] as? [String] ?? [] }) == ["a", "b"], "\(central.standardOutput)")
    }

    @Test("collect takes the nodes side by side, a few photos at once: every photo is kept once, checked, with its progress told as JSON; collected again, all are there already",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func sideBySide() async throws {
        let broker = try await Broker()
        var nodes: [ServedCamera] = []
        defer { for node in nodes { node.process.send(SIGTERM) } }
        for name in ["a", "b", "c"] {
            let node = try await ServedCamera(extra: ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "trio", "--node", name])
            nodes.append(node)
            for _ in 0..<4 { #expect(try await node.request("/api/capture", ["-X", "POST"]).status == 200) }
        }
        for name in ["a", "b", "c"] {
            try #require(await until { (try? await broker.next(on: "camctl/trio/\(name)/status", within: 1))?.contains("online") == true })
        }
        let folder = try TemporaryFolder()
        let fleet = ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "trio", "--nodes", "3", "--concurrency", "2", "--json"]
        let first = try await ChildProcess.run(Self.camctl, ["fleet", "collect", "--library", folder.path("all")] + fleet)
        #expect(first.status == 0, "\(first.standardError)")
        let told = Camctl.objects(first.standardOutput)
        let kept = told.filter { $0["result"] as? String == "collected" }
        #expect(kept.count == 12 && Set(kept.compactMap { $0["path"] as? String }).count == 12, "\(first.standardOutput)")
        let progress = told.filter { $0["event"] as? String == "collect_progress" }
        #expect(progress.last?["collected"] as? Int == 12 && progress.last?["listed"] as? Int == 12, "the last progress is the whole: \(progress)")
        #expect(told.last?["collected"] as? Int == 12 && told.last?["had"] as? Int == 0, "\(told.last ?? [:])")
        let library = try await ChildProcess.run(Self.camctl, ["library", "list", "--json"], environment: ["CAMCTL_LIBRARY": folder.path("all")])
        let photos = Camctl.objects(library.standardOutput)
        #expect(photos.count == 12 && Set(photos.flatMap { $0["albums"] as? [String] ?? [] }) == ["a", "b", "c"], "\(library.standardOutput)")

        let again = try await ChildProcess.run(Self.camctl, ["fleet", "collect", "--library", folder.path("all")] + fleet)
        #expect(again.status == 0 && Camctl.objects(again.standardOutput).last?["had"] as? Int == 12, "\(again.standardOutput) \(again.standardError)")
        let files = try await ChildProcess.run(Self.camctl, ["fleet", "collect", "--into", folder.path("files")] + fleet)
        #expect(files.status == 0, "\(files.standardError)")
        for name in ["a", "b", "c"] {
            let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path("files/\(name)"))
            #expect(kept.count == 4, "\(name): \(kept)")
        }
    }

    @Test("capture --bullet-time makes the synchronized photos into a clip in the nodes' order (n1, n2, n10), swept there and back: an MP4 and a GIF, read back frame by frame",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func bulletTime() async throws {
        let broker = try await Broker()
        var nodes: [ServedCamera] = []
        defer { for node in nodes { node.process.send(SIGTERM) } }
        // Each node's camera a plain colour, so the clip's frames say whose photo each is.
        for (name, pattern) in [("n10", "blue"), ("n2", "green"), ("n1", "red")] {
            nodes.append(try await ServedCamera(extra: ["--device", "test:\(pattern)", "--resolution", "320x240@30",
                                                        "--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "wiggle", "--node", name]))
        }
        let folder = try TemporaryFolder()
        let fleet = ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "wiggle", "--nodes", "3", "--timeout", "60"]
        let movie = folder.path("sweep.mp4")
        let made = try await ChildProcess.run(Self.camctl, ["fleet", "capture", "--into", folder.path("all"), "--bullet-time", movie, "--json"] + fleet)
        #expect(made.status == 0, "\(made.standardError)")
        #expect(Camctl.objects(made.standardOutput).last?["bullet_time"] as? String == movie, "\(made.standardOutput)")
        // Every frame's colour, as ffmpeg decodes the file: one frame a node, there and back, twice.
        let frames = try await ChildProcess.run("ffmpeg", ["-loglevel", "error", "-i", movie, "-vf", "scale=1:1", "-f", "rawvideo", "-pix_fmt", "rgb24",
                                                          folder.path("frames.rgb")])
        try #require(frames.status == 0, "\(frames.standardError)")
        let colours = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder.path("frames.rgb"))))
        let named = stride(from: 0, to: colours.count - 2, by: 3).map { index -> String in
            let (red, green, blue) = (colours[index], colours[index + 1], colours[index + 2])
            return red > 150 && green < 100 ? "red" : green > 150 && red < 100 ? "green" : blue > 150 && red < 100 ? "blue" : "?"
        }
        #expect(named == ["red", "green", "blue", "green", "red", "green", "blue", "green"], "\(named)")
        let gif = folder.path("sweep.gif")
        let looped = try await ChildProcess.run(Self.camctl, ["fleet", "capture", "--into", folder.path("all"), "--bullet-time", gif] + fleet)
        #expect(looped.status == 0, "\(looped.standardError)")
        let counted = try await ChildProcess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=codec_name,nb_read_frames",
                                                             "-of", "csv=p=0", gif])
        #expect(counted.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "gif,4", "\(counted.standardOutput) \(counted.standardError)")
        let refused = try await ChildProcess.run(Self.camctl, ["fleet", "capture", "--bullet-time", folder.path("x.mov")] + fleet)
        #expect(refused.status == 64 && refused.standardError.contains("names no .mp4 or .gif file"), "\(refused.standardError)")
    }

    /// A fake node "evil" of the fleet "rig": online, and answering each command with the result
    /// `answer`, a Python expression of `command` (the command's JSON object).
    static func fakeNode(_ broker: Broker, answering answer: String) async throws -> ChildProcess.Running {
        try await broker.publish("camctl/rig/evil/status", #"{"state": "online", "device": "fake"}"#, retained: true)
        let fake = try ChildProcess.Running("/usr/bin/python3", ["-c", """
            import ctypes, json, signal, subprocess
            # The listener ends with this script, however it ends (the test kills it).
            def die_with_parent():
                ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
            watch = subprocess.Popen(["mosquitto_sub", "-p", "\(broker.port)", "-t", "camctl/rig/evil/command",
                                      "-t", "camctl/rig/command"], stdout=subprocess.PIPE, text=True, preexec_fn=die_with_parent)
            for line in watch.stdout:
                command = json.loads(line)
                print(command["id"], flush=True)
                if command["id"] == "probe":
                    continue
                answer = \(answer)
                subprocess.run(["mosquitto_pub", "-p", "\(broker.port)", "-t", "camctl/rig/evil/events", "-m", json.dumps(answer)])
            """])
        let subscribed = await until {
            try? await broker.publish("camctl/rig/evil/command", #"{"id": "probe"}"#)
            return await fake.output(containing: "probe", timeout: 1)
        }
        guard subscribed else {
            fake.send(SIGKILL)
            throw ChildProcess.Failure(message: "the fake node never listened")
        }
        return fake
    }

    @Test("A node that lists photos without end, none of which can be had, is given up after ten in a row: collect ends, exit 69",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func endlessNode() async throws {
        let broker = try await Broker()
        // Every listing answered with 50 new photos and more to come, each where nothing answers.
        let fake = try await Self.fakeNode(broker, answering: """
            {"event": "result", "id": command["id"], "outcome": "listing", "more": True, "photos": [
                {"id": int(command.get("after", 0)) + n, "path": "/lib/20261201-101502.250-k3f9x2.jpg",
                 "url": "http://127.0.0.1:1/p/%d" % n, "sha256": "0" * 64, "bytes": 1000, "captured_at_us": 1700000000000000,
                 "codec": "jpeg", "width": 64, "height": 48, "orientation": 1, "device": "fake", "kind": "photo",
                 "captured_at": "2023-11-14T22:13:20.000Z", "state": "final", "thumbnail_path": None} for n in range(1, 51)]}
            """)
        defer { fake.send(SIGKILL) }
        let target = try TemporaryFolder()
        let collected = try await ChildProcess.run(Self.camctl, ["fleet", "collect", "--into", target.url.path, "--broker",
                                                                      "mqtt://127.0.0.1:\(broker.port)", "--fleet", "rig", "--timeout", "30"])
        #expect(collected.status == 69, "\(collected.standardError)")
        #expect(collected.standardError.contains("10 photos of evil in a row could not be had, so its other photos were not collected")
                && collected.standardError.hasSuffix("run camctl fleet collect again to get the rest\n"), "\(collected.standardError)")
    }

    @Test("A node's absurd answer to a capture (a frame from 1970, a path out of its library) counts as a refusal: exit 69",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"), arguments: [
              (#""captured_at_us": 1000000, "url": "http://127.0.0.1:1/p/1-x", "path": "/lib/20261201-101502.250-k3f9x2.jpg""#,
               "its photo's frame was"),
              (#""captured_at_us": int(command["at"] * 1e6), "path": "/etc/passwd""#, "the node answered with no photo of its library"),
              (#""captured_at_us": -1, "path": "/lib/20261201-101502.250-k3f9x2.jpg""#, "a capture time that cannot be"),
              (#""captured_at_us": 1e30, "path": "/lib/20261201-101502.250-k3f9x2.jpg""#, "the node's answer cannot be read"),
          ])
    func absurdAnswers(photo: String, reason: String) async throws {
        let broker = try await Broker()
        // A photo's record whole but for the fields given.
        let record = #"{"kind": "photo", "id": 1, "width": 64, "height": 48, "codec": "jpeg", "captured_at": "2026-12-01T10:15:02.250Z", "#
            + #""device": "fake", "bytes": 1000, "orientation": 1, "thumbnail_path": None, "state": "final", \#(photo)}"#
        let fake = try await Self.fakeNode(broker, answering: #"{"event": "result", "id": command["id"], "outcome": "photos", "photos": [\#(record)]}"#)
        defer { fake.send(SIGKILL) }
        let captured = try await ChildProcess.run(Self.camctl, ["fleet", "capture", "--broker", "mqtt://127.0.0.1:\(broker.port)",
                                                                     "--fleet", "rig", "--at", "0.5", "--timeout", "30"])
        #expect(captured.status == 69, "\(captured.standardOutput) \(captured.standardError)")
        #expect(captured.standardOutput.contains("evil  refused: ") && captured.standardOutput.contains(reason), "\(captured.standardOutput)")
        #expect(captured.standardError == "camctl: evil refused; their photos were not taken\n", "\(captured.standardError)")
    }

    @Test("collect needs one destination, and a destination goes only with capture or collect")
    func usage() async throws {
        let fleet = ["--broker", "mqtt://127.0.0.1:1", "--fleet", "rig"]
        let cases: [([String], String)] = [
            (["collect"], "camctl fleet collect needs --into DIR or --library DIR"),
            (["collect", "--into", "/tmp/x", "--library", "/tmp/y"], "give either --into DIR or --library DIR, not both"),
            (["list", "--into", "/tmp/x"], "--into and --library go with camctl fleet capture or collect"),
        ]
        for (arguments, message) in cases {
            let result = try await ChildProcess.run(Self.camctl, ["fleet"] + arguments + fleet)
            #expect(result.status == 64 && result.standardError == "camctl: \(message)\n", "\(result.standardError)")
        }
    }

    @Test("A broker that cannot be reached, that knows no node of the fleet, or whose nodes waited for do not come, is an error (69), never an empty success",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func nothingToReach() async throws {
        let target = try TemporaryFolder()
        for job in [["list"], ["collect", "--into", target.url.path]] {
            let result = try await ChildProcess.run(Self.camctl, ["fleet"] + job + ["--broker", "mqtt://127.0.0.1:1", "--fleet", "rig", "--timeout", "1"])
            #expect(result.status == 69 && result.standardError.hasPrefix("camctl: the broker at 127.0.0.1:1 cannot be reached"), "\(result.standardError)")
        }
        let broker = try await Broker()
        let empty = try await ChildProcess.run(Self.camctl, ["fleet", "collect", "--into", target.url.path,
                                                                  "--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "nobody"])
        #expect(empty.status == 69 && empty.standardError.contains("keeps no status of any node of the fleet nobody"), "\(empty.standardError)")
        // Nodes waited for that never come: how many did, after --timeout.
        let awaited = try await ChildProcess.run(Self.camctl, ["fleet", "capture", "--nodes", "2", "--timeout", "1",
                                                                    "--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "nobody"])
        #expect(awaited.status == 69 && awaited.standardError == "camctl: only 0 of the 2 nodes of the fleet nobody came online within 1 s; check that they run, or raise --timeout\n",
                "\(awaited.standardError)")
    }
}
