import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl serve answers its own pages only", .hangGuard(minutes: 3))
struct OtherSitesTests {
    /// Requests a page of another site, or a name rebound to this machine, can make.
    static let foreign: [(what: String, path: String, options: [String], status: Int, message: String)] = [
        ("a rebound name reads the status", "/api/status", ["-H", "Host: attacker.example"], 403, "addressed to localhost"),
        ("a rebound name with this port", "/api/photos", ["-H", "Host: attacker.example:%PORT%"], 403, "addressed to localhost"),
        ("a name that merely starts as loopback's", "/snapshot.jpg", ["-H", "Host: 127.0.0.1.attacker.example"], 403, "addressed to localhost"),
        ("a rebound name loads the page", "/", ["-H", "Host: attacker.example"], 403, "addressed to localhost"),
        ("no Host at all", "/api/status", ["-H", "Host:"], 403, "addressed to localhost"),
        ("another origin's capture", "/api/capture", ["-X", "POST", "-H", "Origin: http://attacker.example", "-H", ServedCamera.json, "-d", "{}"],
         403, "a page of another site (http://attacker.example)"),
        ("an opaque origin's capture", "/api/capture", ["-X", "POST", "-H", "Origin: null"], 403, "a page of another site (null)"),
        ("another port's page", "/api/actions", ["-X", "POST", "-H", "Origin: http://127.0.0.1:1", "-d", #"{"action": "burst", "count": 3}"#],
         403, "a page of another site"),
        ("a no-cors fetch's text", "/api/capture", ["-X", "POST", "-H", "Content-Type: text/plain;charset=UTF-8", "-d", "{}"], 415, "must be JSON"),
        ("a form", "/api/actions", ["-X", "POST", "-H", "Content-Type: application/x-www-form-urlencoded", "-d", #"{"action": "capture"}"#],
         415, "must be JSON"),
        ("an empty form", "/api/capture", ["-X", "POST", "-H", "Content-Type: application/x-www-form-urlencoded"], 415, "must be JSON"),
        ("a multipart form", "/api/capture", ["-X", "POST", "-F", "a=b"], 415, "must be JSON"),
        ("another origin's deletion", "/api/photos/1", ["-X", "DELETE", "-H", "Origin: https://attacker.example"], 403, "a page of another site"),
    ]

    @Test("On loopback, requests addressed to another name, from another site's page, with a body that is not JSON, or changing anything without the token or the page's cookie are refused")
    func loopbackRefusesOtherSites() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let kept = try await served.json("/api/capture", ["-X", "POST"])
        #expect(kept.status == 200, "\(kept)")
        for request in Self.foreign {
            let options = request.options.map { $0.replacingOccurrences(of: "%PORT%", with: "\(served.port)") }
            let answer = try await served.json(request.path, options)
            #expect(answer.status == request.status && (answer.object["error"] as? String ?? "").contains(request.message),
                    "\(request.what): \(answer)")
        }
        let photos = try await served.json("/api/photos")
        #expect(photos.object["total"] as? Int == 1, "only the photo taken before: \(photos)")
        // The server's own names and page still work: each loopback name, the page's own origin.
        for host in ["localhost:\(served.port)", "127.0.0.1:\(served.port)", "[::1]:\(served.port)", "LOCALHOST"] {
            #expect(try await served.json("/api/status", ["-H", "Host: \(host)"]).status == 200, "\(host)")
        }
        let own = try await served.json("/api/capture", ["-X", "POST", "-H", "Origin: http://127.0.0.1:\(served.port)", "-d", #"{"quality": 70}"#])
        #expect(own.status == 200, "\(own)")
        #expect(try await served.json("/api/photos/1", ["-X", "DELETE", "-H", "Origin: http://127.0.0.1:\(served.port)"]).status == 200)

        // Reading needs nothing on loopback; changing anything needs the token, or the cookie the
        // page itself hands to the browser that loads it.
        #expect(try await served.json("/api/status", withToken: false).status == 200)
        let anonymous = try await served.json("/api/capture", ["-X", "POST"], withToken: false)
        #expect(anonymous.status == 401 && (anonymous.object["error"] as? String ?? "").contains("changing anything needs the access token"),
                "\(anonymous)")
        let page = try await ChildProcess.run("curl", ["-s", "-D", "-", "-o", "/dev/null", served.base + "/"]).standardOutput
        let cookie = try #require(page.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie: camctl_token=") }, "\(page)")
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        let pair = try #require(cookie.dropFirst("set-cookie: ".count).split(separator: ";").first)
        #expect(try await served.json("/api/capture", ["-X", "POST", "-H", "Cookie: \(pair)"], withToken: false).status == 200)
        #expect(try await served.json("/api/photos", withToken: false).object["total"] as? Int == 2)
    }

    @Test("A capture asked for an instant ahead whose client goes away is given up: no photo is taken at the instant")
    func abandonedCapture() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let instant = Date().timeIntervalSince1970 + 5
        let gone = try await ChildProcess.run("curl", ["-s", "--max-time", "1", "-X", "POST", "-H", ServedCamera.json,
                                                            "-H", "Authorization: Bearer \(served.token)",
                                                            "-d", #"{"action": "capture", "at": \#(instant)}"#, served.base + "/api/actions"])
        #expect(gone.status == 28, "curl gave up waiting: \(gone.status)")
        // Past the instant, with a frame or two to spare: nothing was taken.
        #expect(await until { Date().timeIntervalSince1970 > instant + 1 })
        let photos = try await served.json("/api/photos")
        #expect(photos.object["total"] as? Int == 0, "\(photos)")
    }

    @Test("SIGTERM while a capture waits for its instant stops the server at once: the request is given up, no photo, exit 0")
    func stopDuringWait() async throws {
        let served = try await ServedCamera()
        let instant = Date().timeIntervalSince1970 + 50
        let waiting = try ChildProcess.Running("/usr/bin/curl", ["-s", "--trace-ascii", "-", "--max-time", "120", "-X", "POST",
                                                                "-H", ServedCamera.json, "-H", "Authorization: Bearer \(served.token)",
                                                                "-d", #"{"action": "capture", "at": \#(instant)}"#, served.base + "/api/actions"])
        #expect(await waiting.output(containing: "=> Send data"), "the request is sent")
        let stopped = await served.stop()
        #expect(stopped.status == 0, "\(stopped.standardError)")
        #expect(!stopped.standardError.contains("did not stop"), "\(stopped.standardError)")
        _ = await waiting.finished(timeout: 120)
        #expect(try await served.camctl.photos().isEmpty)
    }

    @Test("The rest of 127.0.0.0/8 is not loopback: a token is needed there; any name reaches it, but no other site's page acts")
    func otherLoopbackNeedsToken() async throws {
        let served = try await ServedCamera(listen: "127.0.0.2")
        defer { served.process.send(SIGTERM) }
        let base = "http://127.0.0.2:\(served.port)"
        func curl(_ options: [String], _ path: String) async throws -> Int {
            let result = try await ChildProcess.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "20"] + options + [base + path])
            return Int(result.standardOutput) ?? 0
        }
        #expect(try await curl([], "/api/status") == 401)
        let token = try String(contentsOfFile: served.camctl.library.path("serve-token"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let bearer = ["-H", "Authorization: Bearer \(token)"]
        #expect(try await curl(bearer + ["-H", "Host: booth.local"], "/api/status") == 200, "guests' phones reach it by any name")
        #expect(try await curl(bearer + ["-X", "POST", "-H", "Origin: http://attacker.example"], "/api/capture") == 403)
        #expect(try await curl(bearer + ["-X", "POST", "-H", "Content-Type: text/plain", "-d", "{}"], "/api/capture") == 415)
        #expect(try await curl(bearer + ["-X", "POST"], "/api/capture") == 200)
    }
}
