import Foundation
import Glibc
import TestSupport
import Testing

/// `camctl serve` on the test camera, on a port of the system's choosing; killed once no test
/// holds it, if it still runs (a test that ends early, or forgets, leaves no server behind).
final class ServedCamera {
    let camctl: Camctl
    let process: ChildProcess.Running
    let port: Int
    let base: String

    /// `camctl serve` on the test camera, with a library of its own or `camctl`'s.
    init(camctl: Camctl? = nil, listen host: String = "127.0.0.1", extra: [String] = [], environment: [String: String] = [:]) async throws {
        self.camctl = try camctl ?? Camctl()
        process = try self.camctl.start(["serve", "--device", "test", "--resolution", "640x480@30", "--listen", "\(host):0", "--json"] + extra,
                                        environment: environment)
        guard await process.output(containing: "\"serving\""),
              let line = process.outputSoFar.split(separator: "\n").first(where: { $0.contains("\"serving\"") }),
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], let port = object["port"] as? Int else {
            process.send(SIGKILL)
            throw ChildProcess.Failure(message: "camctl serve did not start: \(await process.finished(timeout: 5).standardError)")
        }
        self.port = port
        base = "http://127.0.0.1:\(port)"
    }

    deinit {
        process.send(SIGKILL)
    }

    /// The library's access token, made as serve started.
    var token: String {
        ((try? String(contentsOfFile: camctl.library.path("serve-token"), encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// curl's answer to a request: the status and the body, which is sent as JSON, as the server
    /// requires (unless the options say another type). A request that changes something carries
    /// the access token, as a program of the server's owner does, unless `withToken` is false or
    /// the options carry their own. Children are awaited: the suite needs no threads of its own.
    func request(_ path: String, _ options: [String] = [], withToken: Bool = true) async throws -> (status: Int, body: String, bytes: [UInt8]) {
        let sendsBody = options.contains("-d") || options.contains("--data-binary")
        let typed = sendsBody && !options.contains { $0.lowercased().hasPrefix("content-type:") } ? ["-H", Self.json] : []
        let method = options.firstIndex(of: "-X").flatMap { options.indices.contains($0 + 1) ? options[$0 + 1] : nil }
        let changes = sendsBody || options.contains("-F") || (method.map { $0 != "GET" && $0 != "HEAD" } ?? false)
        let authorized = withToken && changes && !options.contains { $0.lowercased().hasPrefix("authorization:") }
            ? ["-H", "Authorization: Bearer \(token)"] : []
        let result = try await ChildProcess.run("curl", ["-s", "-o", "-", "-w", "%{http_code}", "--max-time", "20"] + typed + authorized
                                                     + options + [base + path])
        let bytes = result.standardOutputBytes
        let status = Int(String(decoding: bytes.suffix(3), as: UTF8.self)) ?? 0
        let body = [UInt8](bytes.dropLast(3))
        return (status, String(decoding: body, as: UTF8.self), body)
    }

    /// A number of `/api/status`: `event_clients`, `camera_frames`, …; 0 when it cannot be read.
    func status(_ field: String) async -> Int {
        ((try? await json("/api/status"))?.object[field] as? Int) ?? 0
    }

    /// A listener of `/api/events`, returned once the server counts it.
    func listenToEvents() async throws -> ChildProcess.Running {
        let before = await status("event_clients")
        let listener = try ChildProcess.Running("/usr/bin/curl", ["-s", "-N", "--max-time", "120", base + "/api/events"])
        guard await until({ await status("event_clients") > before }) else {
            listener.send(SIGKILL)
            throw ChildProcess.Failure(message: "the events listener was never counted")
        }
        return listener
    }

    /// Waits until the camera has made `count` frames more than now.
    func cameraFrames(_ count: Int) async -> Bool {
        let start = await status("camera_frames")
        return await until { await status("camera_frames") >= start + count }
    }

    /// The header a request's JSON body goes with.
    static let json = "Content-Type: application/json"

    func json(_ path: String, _ options: [String] = [], withToken: Bool = true) async throws -> (status: Int, object: [String: Any]) {
        let answer = try await request(path, options, withToken: withToken)
        return (answer.status, (try? JSONSerialization.jsonObject(with: Data(answer.bytes)) as? [String: Any]) ?? [:])
    }

    /// `camctl serve` and a counted listener of its events, for `body`; both are ended after it,
    /// however it ends.
    static func listening<T>(camctl: Camctl? = nil, _ body: (ServedCamera, ChildProcess.Running) async throws -> T) async throws -> T {
        let served = try await ServedCamera(camctl: camctl)
        defer { served.process.send(SIGTERM) }  // ended as the test ends; how is not what it checks
        let listener = try await served.listenToEvents()
        defer { listener.send(SIGKILL) }
        return try await body(served, listener)
    }

    /// Stops it as a service manager does, and returns how it ended.
    func stop() async -> ChildProcess.Result {
        process.send(SIGTERM)
        return await process.finished(timeout: 60)
    }
}

@Suite("camctl serve", .hangGuard(minutes: 3))
struct ServeCommandTests {
    @Test("Status, a snapshot from the held frame, a capture, the library's pages, files and deletion")
    func endpoints() async throws {
        let served = try await ServedCamera()
        let status = try await served.json("/api/status")
        #expect(status.status == 200 && status.object["status"] as? String == "running", "\(status)")
        let snapshot = try await served.request("/snapshot.jpg")
        #expect(snapshot.status == 200 && snapshot.bytes.prefix(2) == [0xFF, 0xD8])

        let captured = try await served.json("/api/capture", ["-X", "POST", "-d", #"{"quality": 80}"#])
        #expect(captured.status == 200, "\(captured)")
        let record = try #require((captured.object["photos"] as? [[String: Any]])?.first)
        let id = try #require(record["id"] as? Int)
        #expect(record["quality"] as? Int == 80)
        let page = try await served.json("/api/photos?limit=10")
        #expect(page.object["total"] as? Int == 1 && (page.object["photos"] as? [[String: Any]])?.count == 1)
        let file = try await served.request("/api/photos/\(id)/file")
        let path = try #require(record["path"] as? String)
        let stored = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(file.status == 200 && file.bytes == stored)
        #expect(try await served.request("/api/photos/\(id)/thumbnail").bytes.prefix(2) == [0xFF, 0xD8])
        #expect(try await served.json("/api/photos/\(id)").object["id"] as? Int == id)
        #expect(try await served.json("/api/photos/\(id)", ["-X", "DELETE"]).status == 200)
        #expect(try await served.request("/api/photos/\(id)").status == 404)
        #expect(!FileManager.default.fileExists(atPath: path))
        let result = await served.stop()
        #expect(result.status == 0, "\(result.standardError)")
    }

    /// Requests the API refuses, with their status and a part of their sentence.
    static let badRequests: [(path: String, options: [String], status: Int, message: String)] = [
        ("/api/actions", ["-X", "POST", "-d", #"{"action": "fly"}"#], 400, "there is no action \"fly\""),
        ("/api/actions", ["-X", "POST", "-d", "not json"], 400, "is not a JSON object"),
        ("/api/actions", ["-X", "POST", "-d", #"{"action": "countdown", "seconds": "soon"}"#], 400, "seconds must be a number"),
        ("/api/photos/12345", [], 404, "the library has no photo 12345"),
        ("/api/photos/-1/file", [], 404, "there is no photo -1"),
        ("/api/photos/..%2f..%2fetc%2fpasswd/file", [], 404, "there is nothing at"),
        ("/../../etc/passwd", ["--path-as-is"], 404, "there is nothing at"),
        ("/api/status", ["-X", "DELETE"], 405, "DELETE is not allowed"),
        ("/api/actions", ["-X", "POST", "-d", #"{"action": "burst", "count": 1e308}"#], 400, "count must be a whole number"),
        ("/api/actions", ["-X", "POST", "-d", #"{"action": "countdown", "seconds": -0.5}"#], 400, "seconds must be a number"),
        ("/api/actions", ["-X", "POST", "-d", #"{"action": ["capture"]}"#], 400, "the request names no action"),
        ("/api/actions", ["-X", "POST", "-d", String(repeating: "[", count: 600) + String(repeating: "]", count: 600)], 400,
         "is not a JSON object"),
        ("/api/capture", ["-X", "POST", "-d", #"{"codec": "gif"}"#], 400, "there is no codec \"gif\""),
        ("/api/actions", ["-X", "POST", "-d", #"{"action": "capture", "at": 4102444800}"#], 400, "at must be at most 60 seconds from now"),
    ]

    @Test("A camera named in switch_camera is switched to, and the status says so; a name no camera has is 404 with a sentence")
    func switchByName() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }  // ended as the test ends; how is not what it checks
        let switched = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "switch_camera", "device": "test:ball"}"#])
        #expect(switched.status == 200 && switched.object["outcome"] as? String == "switched" && switched.object["device_id"] as? String == "test:ball",
                "\(switched)")
        #expect(try await served.json("/api/status").object["device_id"] as? String == "test:ball")
        let missing = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "switch_camera", "device": "no such camera"}"#])
        #expect(missing.status == 404 && (missing.object["error"] as? String)?.isEmpty == false, "\(missing)")
    }

    @Test("A booth after shutter photos composes its own shots only; its shots and picture are in the booth album, each with a thumbnail")
    func boothOwnShots() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }  // ended as the test ends; how is not what it checks
        for _ in 1...2 { #expect(try await served.json("/api/capture", ["-X", "POST"]).status == 200) }
        let booth = try await served.json("/api/actions", ["-X", "POST", "-d",
                                                           #"{"action": "booth", "shots": 2, "countdown": 0, "show_shots": 0, "show_result": 0, "layout": "1x4"}"#])
        let composed = try #require(booth.object["composed"] as? [String: Any], "\(booth)")
        // A strip of the booth's two 640x480 shots and their margins, not of four.
        #expect(composed["width"] as? Int == 672 && composed["height"] as? Int == 1008, "\(composed)")
        let listed = try #require(try await served.json("/api/photos").object["photos"] as? [[String: Any]])
        #expect(listed.count == 5)
        let boothPictures = listed.filter { ($0["albums"] as? [String])?.contains("booth") == true }
        #expect(boothPictures.count == 3, "the two shots and their strip: \(listed.map { $0["albums"] ?? "" })")
        for picture in listed {
            let id = try #require(picture["id"] as? Int)
            #expect(try await served.request("/api/photos/\(id)/thumbnail").status == 200, "photo \(id) has a thumbnail")
        }
        // The album read back over the API, as the page's gallery filters it.
        let albums = try await served.request("/api/albums")
        #expect(String(decoding: albums.bytes, as: UTF8.self) == #"[{"album":"booth","photos":3}]"#)
        let page = try await served.json("/api/photos?album=booth")
        #expect((page.object["photos"] as? [[String: Any]])?.count == 3 && page.object["total"] as? Int == 3, "\(page.object)")
        // The attract screen's pictures: the booth's composed ones only, counted as such.
        let pictures = try await served.json("/api/photos?album=booth&composed=true")
        let ids = (pictures.object["photos"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }
        #expect(ids == [composed["id"] as? Int].compactMap { $0 } && ids?.count == 1 && pictures.object["total"] as? Int == 1, "\(pictures.object)")
        let everyComposed = try await served.json("/api/photos?composed=true")
        #expect(everyComposed.object["total"] as? Int == 1, "\(everyComposed.object)")
        let wrong = try await served.json("/api/photos?composed=yes")
        #expect(wrong.status == 400 && wrong.object["error"] as? String == "composed must be true or false", "\(wrong)")
    }

    @Test("A booth's guest page brings its clip (an MP4 in a player, a GIF as an image, which phones play) and its own shots, each by a link of its own that opens that shot; a photo taken before is not among them",
          arguments: ["mp4", "gif"])
    func guestPageOfBooth(animation: String) async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        #expect(try await served.json("/api/capture", ["-X", "POST"]).status == 200)
        let booth = try await served.json("/api/actions", ["-X", "POST", "-d",
                                                           #"{"action": "booth", "shots": 2, "countdown": 0, "show_shots": 0, "show_result": 0, "animation": "\#(animation)"}"#])
        #expect(booth.status == 200, "\(booth)")
        let listed = try #require(try await served.json("/api/photos").object["photos"] as? [[String: Any]])
        let composedID = try #require((booth.object["composed"] as? [String: Any])?["id"] as? Int, "\(booth)")
        let composed = try #require(listed.first { $0["id"] as? Int == composedID }, "\(listed)")
        let link = try #require(composed["guest_link"] as? String)
        let page = try await served.request(link, withToken: false)
        #expect(page.status == 200)
        let linkOf = { (id: Int) in (listed.first { $0["id"] as? Int == id }?["guest_link"] as? String).map { String($0.dropFirst("/p/".count)) } ?? "?" }
        let clip = try #require(listed.first { $0["kind"] as? String == "movie" }?["id"] as? Int, "the booth's clip: \(listed)")
        let shots = listed.compactMap { $0["id"] as? Int }.filter { $0 != clip && $0 != composed["id"] as? Int && $0 != 1 }
        #expect(shots.count == 2, "\(listed)")
        let player = animation == "gif" ? #"<img src="\#(linkOf(clip))/file" alt="Your clip">"# : #"<video src="\#(linkOf(clip))/file""#
        #expect(page.body.contains(player), "the clip plays on the page: \(page.body)")
        // The clip's own page shows it the same way.
        let clipPage = try await served.request("/p/\(linkOf(clip))", withToken: false)
        #expect(clipPage.status == 200 && clipPage.body.contains(player), "\(clipPage.body)")
        for shot in shots {
            #expect(page.body.contains(#"<a href="\#(linkOf(shot))"><img src="\#(linkOf(shot))/thumbnail""#), "shot \(shot) is offered")
            let file = try await served.request("/p/\(linkOf(shot))/file", withToken: false)
            let stored = try #require(listed.first { $0["id"] as? Int == shot }?["path"] as? String)
            let kept = [UInt8](try Data(contentsOf: URL(fileURLWithPath: stored)))
            #expect(file.status == 200 && file.bytes == kept, "the shot's own file")
        }
        #expect(!page.body.contains(linkOf(1)), "the photo taken before the booth is not the guest's")
        // A single photo's page has no such section.
        let single = try await served.request("/p/\(linkOf(1))", withToken: false)
        #expect(single.status == 200 && !single.body.contains("From the same booth"))
    }

    /// The text a QR code of serve's SVG holds, as zbarimg reads it once drawn as a bitmap (each
    /// module of the SVG is a `M{x} {y}h1v1h-1z` square).
    static func decodeQR(_ svg: String, in folder: TemporaryFolder) async throws -> String {
        let modules = svg.matches(of: /M([0-9]+) ([0-9]+)h1v1h-1z/).compactMap { match in Int(match.1).flatMap { x in Int(match.2).map { (x, $0) } } }
        let side = (modules.map { max($0.0, $0.1) }.max() ?? 0) + 5, scale = 8
        let dark = Set(modules.map { $0.0 * 10_000 + $0.1 })
        var bitmap = "P1\n\(side * scale) \(side * scale)\n"
        for row in 0..<side * scale {
            bitmap += (0..<side * scale).map { dark.contains(($0 / scale) * 10_000 + row / scale) ? "1" : "0" }.joined(separator: " ") + "\n"
        }
        let file = try folder.file("qr.pbm", holding: bitmap)
        return try await ChildProcess.run("zbarimg", ["-q", "--raw", file]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("Guests' links use the address guests reach: --public-url, else this machine's own on its network for 0.0.0.0; HEAD answers as GET",
          .enabled(if: ChildProcess.isInstalled("zbarimg"), "needs zbarimg"))
    func guestAddress() async throws {
        let everywhere = try await ServedCamera(listen: "0.0.0.0")
        defer { everywhere.process.send(SIGTERM) }
        let addresses = try await ChildProcess.run("hostname", ["-I"]).standardOutput.split(separator: " ").map(String.init)
        let own = try #require(addresses.first { $0.contains(".") && !$0.hasPrefix("127.") }, "this machine has an IPv4 address: \(addresses)")
        let serving = try #require(everywhere.process.outputSoFar.split(separator: "\n").first { $0.contains("\"serving\"") })
        #expect(serving.contains(#""url":"http://\#(own):\#(everywhere.port)/""#), "\(serving)")

        let told = try await ServedCamera(listen: "0.0.0.0", extra: ["--public-url", "http://booth.example:9000/"])
        defer { told.process.send(SIGTERM) }
        let authorized = ["-H", "Authorization: Bearer \(told.token)"]
        #expect(try await told.json("/api/capture", ["-X", "POST"] + authorized).status == 200)
        let photo = try await told.json("/api/photos/1", authorized).object
        let link = try #require(photo["guest_link"] as? String, "\(photo)")
        let svg = try await told.request("/api/photos/1/qr.svg", authorized)
        let folder = try TemporaryFolder()
        #expect(try await Self.decodeQR(svg.body, in: folder) == "http://booth.example:9000" + link)
        // A shared link's preview asks with HEAD: the page's headers, no body; its image is the photo, where guests reach it.
        let head = try await ChildProcess.run("curl", ["-s", "-I", told.base + link])
        #expect(head.standardOutput.hasPrefix("HTTP/1.1 200") && head.standardOutput.contains("Content-Type: text/html"), "\(head.standardOutput)")
        let page = try await told.request(link)
        #expect(page.body.contains(#"<meta property="og:image" content="http://booth.example:9000\#(link)/file">"#), "\(page.body)")
        let refused = try await told.camctl("serve", "--public-url", "booth.example", "--device", "test")
        #expect(refused.status == 64 && refused.standardError.contains("--public-url booth.example is not"), "\(refused.standardError)")
    }

    @Test("Served on loopback alone with no --public-url, serve warns that guests' phones cannot open the QR codes' links, at start and in the status; elsewhere it does not")
    func loopbackWarning() async throws {
        let loopback = try await ServedCamera()
        defer { loopback.process.send(SIGTERM) }
        let warning = "guests' phones cannot open the QR codes' links, which name http://127.0.0.1:\(loopback.port): the server listens on this machine alone; "
            + "serve with --listen 0.0.0.0:\(loopback.port) (and --public-url URL when guests reach it at another address)"
        // Said before the serving line, which ServedCamera waited for.
        #expect(loopback.process.errorsSoFar.contains("camctl: " + warning), "\(loopback.process.errorsSoFar)")
        #expect(try await loopback.json("/api/status").object["guest_warning"] as? String == warning)

        // Behind a proxy that guests reach, named by --public-url: no warning.
        let told = try await ServedCamera(extra: ["--public-url", "http://booth.example:9000/"])
        defer { told.process.send(SIGTERM) }
        #expect(try await told.json("/api/status").object["guest_warning"] == nil)
        #expect(!told.process.errorsSoFar.contains("guests' phones"), "\(told.process.errorsSoFar)")
        let everywhere = try await ServedCamera(listen: "0.0.0.0")
        defer { everywhere.process.send(SIGTERM) }
        #expect(try await everywhere.json("/api/status").object["guest_warning"] == nil)
        #expect(!everywhere.process.errorsSoFar.contains("guests' phones"), "\(everywhere.process.errorsSoFar)")
    }

    @Test("Bad requests are answered with a status and one sentence in JSON, the error record a fleet node sends too; a body over the limit with 413")
    func badRequests() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }  // ended as the test ends; how is not what it checks
        let folder = try TemporaryFolder()
        let big = folder.path("big")
        try Data(repeating: 32, count: 5_000_000).write(to: URL(fileURLWithPath: big))
        let oversized = ("/api/actions", ["-X", "POST", "--data-binary", "@" + big], 413, "larger than")
        for (path, options, status, message) in Self.badRequests + [oversized] {
            let answer = try await served.json(path, options)
            #expect(answer.status == status, "\(path): \(answer)")
            #expect((answer.object["error"] as? String)?.contains(message) == true, "\(path): \(answer)")
            #expect(answer.object["status"] as? Int == status, "\(path)")
            #expect(answer.object["event"] as? String == "error" && answer.object["version"] as? Int == 1 && answer.object.keys.contains("id"),
                    "\(path): \(answer)")
        }
    }

    @Test("On an address other than loopback, everything but the page needs the token; it is made once, kept private")
    func token() async throws {
        let served = try await ServedCamera(listen: "0.0.0.0")
        defer { served.process.send(SIGTERM) }  // ended as the test ends; how is not what it checks
        let file = served.camctl.library.path("serve-token")
        let token = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        var info = stat()
        #expect(stat(file, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(token.count == 64)
        #expect(try await served.request("/").status == 200, "the page itself is open")
        for path in ["/api/status", "/snapshot.jpg", "/api/photos", "/api/events"] {
            #expect(try await served.json(path).status == 401, "\(path)")
        }
        #expect(try await served.json("/api/status", ["-H", "Authorization: Bearer \(String(repeating: "0", count: 64))"]).status == 401)
        #expect(try await served.json("/api/status", ["-H", "Authorization: Bearer \(token)"]).status == 200)
        let visit = try await ChildProcess.run("curl", ["-s", "-D", "-", "-o", "/dev/null", served.base + "/api/status?token=\(token)"]).standardOutput
        #expect(visit.contains("Set-Cookie: camctl_token=\(token); Path=/; HttpOnly; SameSite=Strict"), "\(visit)")
        #expect(try await served.json("/api/status", ["-H", "Cookie: camctl_token=\(token)"]).status == 200)

        // A guest's link needs no token and reaches its one photo; a changed tag reaches nothing.
        let taken = try await served.json("/api/capture", ["-X", "POST", "-H", "Authorization: Bearer \(token)"])
        let photo = try #require((taken.object["photos"] as? [[String: Any]])?.first)
        let link = try #require(photo["guest_link"] as? String)
        let page = try await served.request(link)
        #expect(page.status == 200 && page.body.contains(#"id="download""#) && page.body.contains(#"property="og:image""#), "\(page.body)")
        let download = try await served.request(link + "/file")
        let stored = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(photo["path"] as? String))))
        #expect(download.status == 200 && download.bytes == stored)
        let forged = String(link.dropLast()) + (link.hasSuffix("0") ? "1" : "0")
        #expect(try await served.request(forged).status == 404)
        #expect(try await served.request("/p/2-" + (link.split(separator: "-").last ?? "")).status == 404, "another id with the same tag")
        #expect(try await served.json("/api/photos/1/file").status == 401, "the guest reaches nothing else")
    }

    @Test("20 viewers of the live picture share one encode per frame; a viewer that stops reading holds back nobody")
    func viewers() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }  // ended as the test ends; how is not what it checks
        // Event-driven, with no rate: the viewers read until the stalled viewer has had 60 frames
        // it did not read (far more than its socket holds), then until each has a frame captured
        // after that moment. Each wait is bounded only by a hang guard.
        let probe = try await ChildProcess.run("/usr/bin/python3", ["-c", """
            import json, socket, sys, threading, time, urllib.request
            base = "\(served.base)"
            def status():
                return json.load(urllib.request.urlopen(base + "/api/status"))
            def wait(condition, what):
                deadline = time.monotonic() + 120
                while not condition():
                    if time.monotonic() > deadline:
                        sys.exit("hung waiting for " + what)
                    time.sleep(0.05)
            before = status()
            stalled = socket.create_connection(("127.0.0.1", \(served.port)))
            stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            stalled.sendall(b"GET /stream.mjpg HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n")
            captured = [[] for _ in range(20)]
            stop = threading.Event()
            def view(index):
                stream = urllib.request.urlopen(base + "/stream.mjpg")
                while not stop.is_set():
                    headers = {}
                    while True:
                        line = stream.readline().strip()
                        if not line and headers:
                            break
                        if b":" in line:
                            name, value = line.split(b":", 1)
                            headers[name.lower()] = value.strip()
                    stream.read(int(headers[b"content-length"]) + 2)
                    captured[index].append(int(headers.get(b"x-captured-monotonic", b"0")))
            threads = [threading.Thread(target=view, args=(i,), daemon=True) for i in range(20)]
            for thread in threads: thread.start()
            wait(lambda: status()["viewers"] == 21, "21 viewers")
            opened = status()["frames_encoded"]
            wait(lambda: status()["frames_encoded"] >= opened + 60, "60 frames past the stalled viewer")
            during = status()
            moment = time.monotonic_ns()
            wait(lambda: all(frames and frames[-1] > moment for frames in captured), "every reading viewer's next frame")
            after = status()
            stop.set()
            print(json.dumps({"viewers": during["viewers"], "encoded": after["frames_encoded"] - before["frames_encoded"],
                              "camera": after["camera_frames"] - before["camera_frames"], "counts": [len(c) for c in captured]}))
            """])
        let result = try #require(try JSONSerialization.jsonObject(with: Data(probe.standardOutput.utf8)) as? [String: Any],
                                  "\(probe.standardOutput) \(probe.standardError)")
        let encoded = try #require(result["encoded"] as? Int), camera = try #require(result["camera"] as? Int)
        #expect(result["viewers"] as? Int == 21)
        // One encode per camera frame however many watch (20 encodes per frame would be twenty times
        // the camera's); a frame or two already on its way when the first viewer came may be added.
        #expect(encoded >= 60 && encoded <= camera + 2, "\(encoded) frames encoded of the camera's \(camera)")
        // Every reading viewer got a frame captured after the stalled one had let 60 go: it held back nobody.
        #expect((result["counts"] as? [Int])?.count == 20)
    }

    @Test("Events arrive as server-sent events: a countdown's seconds and the saved photo")
    func events() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }  // ended as the test ends; how is not what it checks
        let listener = try await served.listenToEvents()
        #expect(try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "countdown", "seconds": 2}"#]).object["outcome"] as? String
                == "countdown_ended")
        #expect(try await served.json("/api/capture", ["-X", "POST"]).status == 200)
        #expect(await listener.output(containing: #""event":"photo""#))
        // SIGKILL: a child of the tests starts with SIGTERM blocked, as their threads have it, and
        // would be let run until the time-out below.
        listener.send(SIGKILL)
        let lines = await listener.finished(timeout: 120).standardOutput.split(separator: "\n").filter { $0.hasPrefix("data: ") }
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any] }
        #expect(events.contains { $0["event"] as? String == "countdown" && $0["seconds_left"] as? Int == 2 }, "\(lines)")
        #expect(events.contains { $0["event"] as? String == "photo" && $0["id"] as? Int == 1 }, "\(lines)")
    }

    @Test("A photo's line is the same from capture --json as from /api/events: the same fields in the same order, only the photo's own values differ")
    func photoLineAlike() async throws {
        let camctl = try Camctl()
        // The size ServedCamera serves at.
        let captured = try await camctl("capture", "--device", "test", "--resolution", "640x480", "--json")
        #expect(captured.status == 0, "\(captured.standardError)")
        let printed = try #require(captured.standardOutput.split(separator: "\n").first { $0.contains(#""event":"photo""#) }, "\(captured.standardOutput)")
        let served = try await ServedCamera(camctl: camctl)
        defer { served.process.send(SIGTERM) }
        let listener = try await served.listenToEvents()
        #expect(try await served.json("/api/capture", ["-X", "POST"]).status == 200)
        #expect(await listener.output(containing: #""event":"photo""#))
        listener.send(SIGKILL)
        let sent = try #require(await listener.finished(timeout: 120).standardOutput.split(separator: "\n")
            .first { $0.hasPrefix("data: ") && $0.contains(#""event":"photo""#) }.map { $0.dropFirst(6) })
        // What is the photo's own: its id, file, size, instant, thumbnail and link.
        let own = #/"(id|path|bytes|captured_at|captured_at_us|thumbnail_path|guest_link)":("[^"]*"|-?[0-9.]+)/#
        func shape(_ line: Substring) -> String { String(line.replacing(own) { "\"\($0.output.1)\":_" }) }
        #expect(shape(printed) == shape(sent), "capture --json: \(printed)\n/api/events:    \(sent)")
        #expect(printed.contains(#""guest_link":"/p/1-"#) && sent.contains(#""guest_link":"/p/2-"#), "\(printed)\n\(sent)")
    }

    @Test("A HEIC capture answers at once with its proxy processing; the HEIC replaces it, told as photo and processed events")
    func deferredHEIC() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let listener = try await served.listenToEvents()
        let answer = try await served.json("/api/capture", ["-X", "POST", "-d", #"{"codec": "hevc"}"#])
        let proxy = try #require((answer.object["photos"] as? [[String: Any]])?.first, "\(answer)")
        #expect(proxy["state"] as? String == "processing" && (proxy["path"] as? String)?.hasSuffix(".jpg") == true)
        func final() async -> [String: Any]? {
            ((try? await served.json("/api/photos"))?.object["photos"] as? [[String: Any]])?.first { $0["state"] as? String == "final" }
        }
        #expect(await until { await final() != nil }, "the HEIC replaced its proxy")
        let kept = await final()
        #expect(kept?["codec"] as? String == "hevc" && kept?["id"] as? Int == proxy["id"] as? Int)
        #expect(await listener.output(containing: #""event":"processed""#))
        listener.send(SIGKILL)
        let lines = await listener.finished(timeout: 120).standardOutput.split(separator: "\n").filter { $0.hasPrefix("data: ") }
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any] }
        #expect(events.contains { $0["event"] as? String == "photo" && $0["codec"] as? String == "hevc" }, "\(lines)")
        #expect(events.contains { $0["event"] as? String == "processed" && ($0["photo"] as? [String: Any])?["state"] as? String == "final" },
                "\(lines)")
    }

    @Test("Record over the API: started, told as events, stopped into a movie the library serves as video/mp4; SIGTERM keeps one in progress")
    func record() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let listener = try await served.listenToEvents()
        let unheard = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "record_start", "audio": "no such microphone"}"#])
        #expect(unheard.status == 503 && (unheard.object["error"] as? String)?.contains("no microphone named") == true, "\(unheard)")
        // In the request's words, never the command line's.
        let error = unheard.object["error"] as? String ?? ""
        #expect(!error.contains("--") && (error.contains("the microphones are") || error.contains(#"send "audio": "none""#)), "\(error)")
        let started = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "record_start", "audio": "test"}"#])
        #expect(started.object["outcome"] as? String == "recording", "\(started)")
        let again = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "record_start"}"#])
        #expect(again.status == 409, "\(again)")
        #expect(await served.cameraFrames(60), "two seconds of frames pass")
        let stopped = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "record_stop"}"#])
        let movie = try #require(stopped.object["movie"] as? [String: Any], "\(stopped)")
        // The movie holds the frames it took, each in its place: its length is its frames' and the
        // frames it lost (a loaded machine starts the recording's branch later and loses some).
        let (frames, lost) = (movie["frames"] as? Int ?? 0, movie["lost_frames"] as? Int ?? 0)
        #expect(movie["kind"] as? String == "movie" && frames > 0, "\(movie)")
        #expect(abs((movie["duration"] as? Double ?? 0) - Double(frames + lost) / 30) <= 2.0 / 30, "\(movie)")
        #expect(movie["audio_codec"] as? String == "aac", "\(movie)")
        let id = try #require(movie["id"] as? Int)
        let file = try await served.request("/api/photos/\(id)/file", ["-D", "/dev/stderr"])
        #expect(file.status == 200 && file.bytes.count == movie["bytes"] as? Int)
        let headers = try await ChildProcess.run("curl", ["-s", "-o", "/dev/null", "-D", "-", served.base + "/api/photos/\(id)/file"])
        #expect(headers.standardOutput.lowercased().contains("content-type: video/mp4"), "\(headers.standardOutput)")
        #expect(try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "record_stop"}"#]).status == 409)
        listener.send(SIGKILL)
        let lines = await listener.finished(timeout: 120).standardOutput.split(separator: "\n").filter { $0.hasPrefix("data: ") }
        let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any] }
        #expect(events.contains { $0["event"] as? String == "recording" }, "\(lines)")
        #expect(events.contains { $0["event"] as? String == "movie" && ($0["movie"] as? [String: Any])?["id"] as? Int == id }, "\(lines)")
        // A movie being recorded as the server is stopped is kept.
        #expect(try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "record_start"}"#]).status == 200)
        #expect(await served.cameraFrames(45), "a second and a half of frames pass")
        let ended = await served.stop()
        #expect(ended.status == 0, "\(ended.standardError)")
        let movies = try await served.camctl.photos().filter { $0["kind"] as? String == "movie" }
        #expect(movies.count == 2 && movies.allSatisfy { ($0["duration"] as? Double ?? 0) > 0.5 }, "\(movies)")
    }

    @Test("A review over the API: the photo waits, keep saves it, discard leaves the library as it was")
    func review() async throws {
        try await ServedCamera.listening { served, listener in
            for (round, verdict) in ["keep", "discard"].enumerated() {
                #expect(try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "hold"}"#]).object["outcome"] as? String == "held")
                #expect(try await served.json("/api/capture", ["-X", "POST"]).object["count"] as? Int == 1)
                let reviewing = try ChildProcess.Running("/usr/bin/curl", ["-s", "-X", "POST", "-H", ServedCamera.json, "-H", "Authorization: Bearer \(served.token)",
                                                                          "-d", #"{"action": "review"}"#,
                                                                          served.base + "/api/actions"])
                // The verdict once the server says the photo is under review.
                #expect(await until { listener.outputSoFar.components(separatedBy: #""event":"reviewing""#).count > round + 1 })
                #expect(try await served.json("/api/actions", ["-X", "POST", "-d", "{\"action\": \"\(verdict)\"}"]).object["answered"] as? Bool == true)
                let outcome = try JSONSerialization.jsonObject(with: Data(await reviewing.finished(timeout: 120).standardOutput.utf8)) as? [String: Any]
                #expect(outcome?["outcome"] as? String == (verdict == "keep" ? "kept" : "discarded"), "\(String(describing: outcome))")
            }
            #expect(try await served.json("/api/photos").object["total"] as? Int == 1)
        }
    }

    @Test("SIGTERM while a photo is being taken saves it, ends the streams, and exits 0")
    func terminateDuringCapture() async throws {
        let served = try await ServedCamera()
        let viewer = try ChildProcess.Running("/usr/bin/curl", ["-s", "-N", "-o", "/dev/null", "--max-time", "90", served.base + "/stream.mjpg"])
        let capture = try ChildProcess.Running("/usr/bin/curl", ["-s", "-X", "POST", "-H", ServedCamera.json, "-H", "Authorization: Bearer \(served.token)",
                                                                "-d", #"{"action": "burst", "count": 5}"#,
                                                                served.base + "/api/actions"])
        // Stopped once the burst's first photo is in the library: the others are on their way.
        let library = served.camctl.library.url.path
        #expect(await until { ((try? FileManager.default.contentsOfDirectory(atPath: library)) ?? []).contains { $0.hasSuffix(".jpg") } })
        let result = await served.stop()
        #expect(result.status == 0, "\(result.standardError)")
        // The viewer's stream was ended by the stop (curl: 0, or 18 for a stream cut between
        // parts), not waited out: a stop held up by it would last until its curl gives up (28).
        let viewed = await viewer.finished(timeout: 120)
        #expect([0, 18].contains(viewed.status), "curl ended with \(viewed.status)")
        let answered = await capture.finished(timeout: 120).standardOutput
        let photos = try await served.camctl.photos()
        let files = try FileManager.default.contentsOfDirectory(atPath: served.camctl.library.url.path).filter { $0.hasSuffix(".jpg") }
        #expect(files.count == photos.count, "files and rows agree")
        if answered.contains("\"photos\"") { #expect(photos.count == 5, "\(answered)") }
    }
}

@Suite("camctl serve with a camera that goes away", .hangGuard(minutes: 3))
struct ServeCameraLossTests {
    @Test("A camera unplugged while serving is told on /api/events and /api/status; the live picture resumes when it returns",
          .enabled(if: PipeWireCamera.isAvailable, "needs pipewire, wireplumber and gstreamer1.0-pipewire"))
    func cameraLost() async throws {
        let folder = try TemporaryFolder()
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        // Each step waits for what the one before it caused, bounded only by a hang guard: the
        // camera goes once frames flow, comes back once the server says it is interrupted, and a
        // frame of the live picture arrives once it says it runs again.
        let script = """
            "\(camctl)" serve --device "pipewire test" --resolution 640x480 --listen 127.0.0.1:0 --json --library "$1/library" > "$1/served" &
            server=$!
            until_true() { for i in $(seq 2400); do "$@" && return 0; sleep 0.05; done; echo "hung: $*" >&2; kill -TERM $server; exit 1; }
            until_true grep -q serving "$1/served"
            port=$(sed -n 's/.*"port":\\([0-9]*\\).*/\\1/p' "$1/served")
            status() { curl -s "http://127.0.0.1:$port/api/status" > "$1/$2"; grep -q "$3" "$1/$2"; }
            curl -s -N --max-time 600 "http://127.0.0.1:$port/api/events" > "$1/events" &  # ends with the server
            until_true status "$1" status-before '"camera_frames":[1-9]'
            touch "$XDG_RUNTIME_DIR/unplug"
            until_true status "$1" status-gone '"status":"interrupted"'
            touch "$XDG_RUNTIME_DIR/replug"
            until_true status "$1" status-back '"status":"running"'
            curl -s -N --max-time 60 "http://127.0.0.1:$port/stream.mjpg" | grep -m 1 -c -a -- --camctlframe > "$1/parts-back"
            kill -TERM $server; wait $server
            """
        let path = folder.url.path
        let result = try await PipeWireCamera.run("/bin/sh", ["-c", script, "sh", path], unplugsWhenAsked: true)
        #expect(result.status == 0, "\(result.standardError)")
        let read = { (name: String) in (try? String(contentsOfFile: folder.path(name), encoding: .utf8)) ?? "" }
        #expect(read("status-gone").contains("\"status\":\"interrupted\""), "\(read("status-gone"))")
        #expect(read("status-back").contains("\"status\":\"running\""), "\(read("status-back"))")
        let events = read("events")
        #expect(events.contains("\"event\":\"interrupted\"") && events.contains("\"event\":\"resumed\""), "\(events)")
        #expect(read("parts-back").trimmingCharacters(in: .whitespacesAndNewlines) == "1", "the live picture is back")
    }
}
