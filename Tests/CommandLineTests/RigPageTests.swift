import Foundation
import Glibc
import TestSupport
import Testing

@Suite("The rig page: every node's live tile, one shutter, collection, and who missed a capture", .hangGuard(minutes: 5))
struct RigPageTests {
    /// `camctl fleet serve` for the fleet `rig` on `broker`, on a port of the system's choosing;
    /// its URL once it serves.
    static func controller(broker: Broker, camctl: Camctl, extra: [String] = []) async throws -> (process: ChildProcess.Running, base: String) {
        let process = try camctl.start(["fleet", "serve", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "rig",
                                        "--library", camctl.library.url.path, "--listen", "127.0.0.1:0", "--json"] + extra)
        guard await process.output(containing: "\"serving\""),
              let object = Camctl.objects(process.outputSoFar).first(where: { $0["event"] as? String == "serving" }), let port = object["port"] as? Int else {
            process.send(SIGKILL)
            throw ChildProcess.Failure(message: "camctl fleet serve did not start: \(await process.finished(timeout: 5).standardError)")
        }
        return (process, "http://127.0.0.1:\(port)")
    }

    @Test("Headless Chromium: each node's tile shows its picture (at most 320 pixels) and keeps coming; the shutter takes a photo on every node, linked from its tile; Collect brings them into the controller's library; a node killed turns offline and is shown to have missed the next capture",
          .enabled(if: Broker.isAvailable && PageTests.hasBrowser, "needs mosquitto, chromium, chromium-driver and python3-selenium"), .drivesBrowser)
    func page() async throws {
        let broker = try await Broker()
        var nodes: [ServedCamera] = []
        for name in ["n1", "n2", "n3"] { nodes.append(try await FleetCollectTests.node(name, fleet: "rig", broker: broker)) }
        defer { for node in nodes { node.process.send(SIGTERM) } }
        let camctl = try Camctl()
        let (controller, base) = try await Self.controller(broker: broker, camctl: camctl)
        defer { controller.send(SIGTERM) }

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Browser/rig.py").path
        let browser = try ChildProcess.Running("/usr/bin/python3", [script, base, "3", "n3"])
        defer { browser.send(SIGKILL) }
        guard await browser.output(containing: "\"phase\": \"first\"") else {
            Issue.record("the page's first part did not finish: \(await browser.finished(timeout: 5).standardError.suffix(3000))")
            return
        }
        nodes[2].process.send(SIGKILL)
        let ran = await browser.finished(timeout: 240)
        let seen = Camctl.objects(ran.standardOutput)
        let first = try #require(seen.first { $0["phase"] as? String == "first" }, "\(ran.standardOutput) \(ran.standardError.suffix(3000))")
        let tiles = try #require(first["tiles"] as? [[Any]])
        #expect(tiles.map { $0[0] as? String } == ["n1", "n2", "n3"], "\(tiles)")
        // The nodes' camera is 640x480: the tile is brought down to 320 pixels wide.
        #expect(tiles.allSatisfy { $0[1] as? Int == 320 && $0[2] as? Int == 240 }, "\(tiles)")
        let capture = try #require(first["capture"] as? String)
        #expect(capture.contains(": 3 photos, skew ") && !capture.contains(";"), "\(capture)")
        let links = try #require(first["last_photo_links"] as? [String])
        #expect(links.count == 3 && links.allSatisfy { $0.hasPrefix("http://127.0.0.1:") && $0.hasSuffix("/file") }, "\(links)")
        #expect((first["collection"] as? String)?.hasPrefix("collected: 3 of 3 photos (0 there already)") == true, "\(first)")
        let second = try #require(seen.first { $0["phase"] as? String == "second" }, "\(ran.standardOutput) \(ran.standardError.suffix(3000))")
        #expect((second["capture"] as? String)?.contains(": 2 photos, skew ") == true && (second["capture"] as? String)?.hasSuffix("n3 was offline") == true,
                "\(second)")
        #expect((second["lost_caption"] as? String)?.contains("missed 1") == true, "\(second)")

        // The photos the page collected are the controller's library's, one of each node's, each as its node made it.
        let kept = try await camctl("library", "list", "--json")
        #expect(Camctl.objects(kept.standardOutput).filter { $0["path"] != nil }.count == 3, "\(kept.standardOutput)")
        controller.send(SIGTERM)
        #expect(await controller.finished(timeout: 120).status == 0)
    }

    @Test("The rig's API: one capture and one collection at a time (a second asked while the first waits is refused, and the first ends as it would have); changes need the token, other sites and other names are refused; a node's tile link needs no token but its right tag",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func api() async throws {
        let broker = try await Broker()
        let node = try await FleetCollectTests.node("n1", fleet: "rig", broker: broker)
        defer { node.process.send(SIGTERM) }
        let camctl = try Camctl()
        // A minute for a node's answers: the stopped node below holds a collection that long at most.
        let (controller, base) = try await Self.controller(broker: broker, camctl: camctl, extra: ["--timeout", "60"])
        defer { controller.send(SIGTERM) }
        let token = try String(contentsOfFile: camctl.library.path("serve-token"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        func request(_ path: String, _ options: [String] = []) async throws -> (status: Int, body: String) {
            let result = try await ChildProcess.run("curl", ["-s", "-o", "-", "-w", "%{http_code}", "--max-time", "60"] + options + [base + path])
            return (Int(result.standardOutput.suffix(3)) ?? 0, String(result.standardOutput.dropLast(3)))
        }
        let authorized = ["-H", "Authorization: Bearer \(token)", "-H", "Content-Type: application/json"]
        guard await until({ ((try? await request("/api/rig"))?.body ?? "").contains("\"state\":\"online\"") }) else {
            Issue.record("the controller never heard of the node")
            return
        }

        // The first capture waits fifteen seconds for its instant (a loaded machine took over three
        // to ask the second); the second, asked meanwhile, is refused.
        let first = try ChildProcess.Running("/usr/bin/curl", ["-s", "--max-time", "120", "-X", "POST"] + authorized + ["-d", #"{"in": 15}"#, base + "/api/capture"])
        defer { first.send(SIGKILL) }
        #expect(await until { ((try? await request("/api/rig"))?.body ?? "").contains("\"capturing\":true") })
        let second = try await request("/api/capture", ["-X", "POST", "-d", #"{"in": 1}"#] + authorized)
        #expect(second.status == 409 && second.body.contains("a capture is under way"), "\(second)")
        let answered = await first.finished(timeout: 120)
        let photos = (try? JSONSerialization.jsonObject(with: Data(answered.standardOutput.utf8)) as? [String: Any])?["photos"] as? [[String: Any]]
        #expect(photos?.count == 1 && photos?.first?["node"] as? String == "n1", "\(answered.standardOutput)")
        let rig = try await request("/api/rig")
        #expect(rig.body.contains("\"capturing\":false") && rig.body.contains("\"last_photo\":{"), "\(rig.body)")

        // The node stopped, its collection waits for its answer; a second collection asked meanwhile
        // is refused, and once the node goes on, the first collects its photo.
        node.process.send(SIGSTOP)
        let started = try await request("/api/collect", ["-X", "POST"] + authorized)
        let again = try await request("/api/collect", ["-X", "POST"] + authorized)
        node.process.send(SIGCONT)
        #expect(started.status == 202 && again.status == 409 && again.body.contains("being collected already"), "\(started) \(again)")
        #expect(await until { ((try? await request("/api/rig"))?.body ?? "").contains("\"state\":\"finished\"") })
        let collected = try await request("/api/rig")
        let collection = (try? JSONSerialization.jsonObject(with: Data(collected.body.utf8)) as? [String: Any])?["collection"] as? [String: Any]
        #expect(collection?["collected"] as? Int == 1 && (collection?["problems"] as? [String])?.isEmpty == true, "\(collected.body)")

        // The token, Host and Origin rules are the camera server's.
        let unauthorized = try await request("/api/capture", ["-X", "POST", "-H", "Content-Type: application/json", "-d", "{}"])
        #expect(unauthorized.status == 401, "\(unauthorized)")
        let otherSite = try await request("/api/collect", ["-X", "POST", "-H", "Origin: http://evil.example"] + authorized)
        #expect(otherSite.status == 403, "\(otherSite)")
        let otherName = try await request("/api/rig", ["-H", "Host: rebound.example:8090"])
        #expect(otherName.status == 403, "\(otherName)")
        #expect(try await request("/api/nothing").status == 404)

        // The node's tile: its right link answers a JPEG, any other is not found.
        let tileURL = try #require(rig.body.split(separator: "\"").first { $0.contains("/tile/") }.map(String.init))
        let tile = try await ChildProcess.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code} %{content_type}", tileURL])
        #expect(tile.standardOutput == "200 image/jpeg", "\(tile.standardOutput)")
        let wrong = try await ChildProcess.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", tileURL.replacingOccurrences(of: "/tile/", with: "/tile/0")])
        #expect(wrong.standardOutput == "404", "\(wrong.standardOutput)")
    }
}
