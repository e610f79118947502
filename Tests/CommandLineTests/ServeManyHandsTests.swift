import Foundation
import Glibc
import TestSupport
import Testing

/// `camctl serve` asked by several hands at once (the page, a phone, a script): flows that share
/// the stage are refused with 409 and a sentence while one runs, and nothing is lost or mixed.
@Suite("camctl serve, many hands at once", .startsPrograms)
struct ServeManyHandsTests {
    /// A request sent in the background, with the server's token, answered when it ends.
    static func sending(_ served: ServedCamera, _ path: String, method: String = "POST", _ body: String) throws -> ChildProcess.Running {
        try ChildProcess.Running("/usr/bin/curl", ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", method, "-H", ServedCamera.json,
                                                   "-H", "Authorization: Bearer \(served.token)", "-d", body, served.base + path])
    }

    /// The status and JSON object of a background request, once it ends.
    static func answer(of request: ChildProcess.Running) async -> (status: Int, object: [String: Any]) {
        let output = await request.finished(timeout: 120).standardOutput
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        let body = lines.dropLast().joined(separator: "\n")
        return (status, (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:])
    }

    @Test("A booth sent while one counts down is refused with 409 and a sentence; end_run ends the first; the server runs on")
    func boothAndBooth() async throws {
        try await ServedCamera.listening { served, listener in
            let first = try Self.sending(served, "/api/actions", #"{"action": "booth", "shots": 2, "countdown": 600, "show_shots": 0, "show_result": 0}"#)
            #expect(await until { listener.outputSoFar.contains(#""event":"countdown""#) })
            let second = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "booth", "shots": 1, "countdown": 0}"#])
            #expect(second.status == 409, "\(second)")
            #expect((second.object["error"] as? String)?.hasPrefix("a booth is running") == true, "\(second.object)")
            let photo = try await served.json("/api/capture", ["-X", "POST", "-d", "{}"])
            #expect(photo.status == 200, "a photo from another hand is taken meanwhile: \(photo)")
            #expect(try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "end_run"}"#]).object["ended"] as? Bool == true)
            let ended = await Self.answer(of: first)
            #expect(ended.status == 200 && ended.object["outcome"] as? String == "booth_taken" && (ended.object["photos"] as? [Any])?.isEmpty == true,
                    "\(ended)")
            let listed = try await served.json("/api/photos").object["photos"] as? [[String: Any]]
            #expect(listed?.count == 1 && (listed?.first?["albums"] as? [String] ?? []).isEmpty, "only the other hand's photo, in no booth album: \(listed ?? [])")
            #expect(try await served.json("/api/status").status == 200)
        }
    }

    @Test("Two compositions sent together: one composes, the other is 409; the server runs on")
    func composeAndCompose() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        for _ in 1...2 { #expect(try await served.json("/api/capture", ["-X", "POST"]).status == 200) }
        let requests = try (0..<2).map { _ in try Self.sending(served, "/api/actions", #"{"action": "compose", "layout": "1x4"}"#) }
        var statuses: [Int] = []
        for request in requests { statuses.append(await Self.answer(of: request).status) }
        #expect(statuses.sorted() == [200, 409], "\(statuses)")
        #expect(try await served.json("/api/photos").object["total"] as? Int == 3)
    }

    @Test("A review sent while one waits is refused with 409; the first is answered")
    func reviewAndReview() async throws {
        try await ServedCamera.listening { served, listener in
            _ = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "hold"}"#])
            _ = try await served.json("/api/capture", ["-X", "POST"])
            let first = try Self.sending(served, "/api/actions", #"{"action": "review"}"#)
            #expect(await until { listener.outputSoFar.contains(#""event":"reviewing""#) })
            let second = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "review"}"#])
            #expect(second.status == 409 && (second.object["error"] as? String)?.contains("review") == true, "\(second)")
            #expect(try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "keep"}"#]).object["answered"] as? Bool == true)
            let kept = await Self.answer(of: first)
            #expect(kept.status == 200 && kept.object["outcome"] as? String == "kept", "\(kept)")
        }
    }

    @Test("Settings changed by two hands at once keep both changes, round after round")
    func settingsAndSettings() async throws {
        let folder = try TemporaryFolder()
        let served = try await ServedCamera(extra: ["--settings", folder.path("settings.json")])
        defer { served.process.send(SIGTERM) }
        for round in 1...6 {
            let requests = try [#"{"countdown": \#(round)}"#, #"{"shots": \#(round % 4 + 1)}"#, #"{"filter": "\#(round % 2 == 0 ? "sepia" : "mono")"}"#]
                .map { try Self.sending(served, "/api/settings", method: "PUT", $0) }
            for request in requests { #expect(await Self.answer(of: request).status == 200) }
            let now = try await served.json("/api/settings").object
            #expect(now["countdown"] as? Double == Double(round) && now["shots"] as? Int == round % 4 + 1
                    && now["filter"] as? String == (round % 2 == 0 ? "sepia" : "mono"), "round \(round): \(now)")
            let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("settings.json")))) as? [String: Any]
            #expect(kept?["countdown"] as? Double == Double(round) && kept?["shots"] as? Int == round % 4 + 1, "the file: \(kept ?? [:])")
        }
    }

    @Test("Two movies started together: one records, the other is 409 (a movie is being recorded already); stopped, it is kept")
    func recordAndRecord() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let starts = try (0..<2).map { _ in try Self.sending(served, "/api/actions", #"{"action": "record_start", "audio": "none"}"#) }
        var answers: [(status: Int, object: [String: Any])] = []
        for start in starts { answers.append(await Self.answer(of: start)) }
        #expect(answers.map(\.status).sorted() == [200, 409], "\(answers)")
        #expect(answers.contains { ($0.object["error"] as? String)?.contains("a movie is being recorded already") == true }, "\(answers)")
        #expect(await served.cameraFrames(10))
        let stopped = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "record_stop"}"#])
        #expect(stopped.status == 200 && stopped.object["outcome"] as? String == "movie", "\(stopped)")
    }

    @Test("200 mixed requests from 16 hands at once: each answered 200 or 409 with a sentence, every booth's picture of its own shots, the server still serving")
    func manyHands() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../scripts/many-hands.py").path
        let result = try await ChildProcess.run("/usr/bin/python3", [script, "\(served.port)", served.token, "200", "16"])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let summary = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        #expect(summary?["requests"] as? Int == 200, "\(result.standardOutput)")
        #expect(!served.process.hasEnded, "the server still runs")
    }
}
