import Foundation
import Glibc
import TestSupport
import Testing

/// The operator's events are told in one shape, with one set of defaults, by every front end.
@Suite("One vocabulary of events and defaults", .startsPrograms)
struct EventVocabularyTests {
    /// The operator's events among printed or sent objects (not the photos, not the session's),
    /// each as sorted-key JSON, so two front ends' can be compared as they are.
    static func operatorEvents(_ objects: [[String: Any]]) throws -> [String] {
        let names: Set = ["countdown", "shot", "showing", "cleared", "reviewing", "kept", "discarded"]
        return try objects.filter { names.contains($0["event"] as? String ?? "") }.map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }
    }

    /// Asks the server for an action that waits for a review, answers `verdict` once the events
    /// say the review waits, and returns the action's answer.
    static func answered(_ served: ServedCamera, _ listener: ChildProcess.Running, asking action: String, with verdict: String) async throws -> String {
        let asked = try ChildProcess.Running("/usr/bin/curl", ["-s", "-X", "POST", "-H", ServedCamera.json, "-H", "Authorization: Bearer \(served.token)",
                                                              "-d", action, served.base + "/api/actions"])
        #expect(await listener.output(containing: #""event":"reviewing""#), "\(listener.outputSoFar)")
        #expect(try await served.json("/api/actions", ["-X", "POST", "-d", "{\"action\": \"\(verdict)\"}"]).object["answered"] as? Bool == true)
        return await asked.finished(timeout: 60).standardOutput
    }

    @Test("A booth left to its defaults tells the same events from booth --json and from /api/events: 3 s counted, a 30 s review")
    func boothEventsAlike() async throws {
        let camctl = try Camctl()
        let booth = try camctl.start(["booth", "--device", "test", "--resolution", "320x240", "--sink", "fakesink", "--shots", "1",
                                      "--show-shots", "0", "--show-result", "0", "--review", "--json"], writingInput: true)
        #expect(await booth.output(containing: #""event":"reviewing""#), "\(booth.outputSoFar)")
        booth.write("keep\n")
        let printed = await booth.finished()
        #expect(printed.status == 0, "\(printed.standardError)")
        let fromCommandLine = try Self.operatorEvents(Camctl.objects(printed.standardOutput))

        let fromTheAPI = try await ServedCamera.listening { served, listener in
            let answer = try await Self.answered(served, listener, asking: #"{"action": "booth", "shots": 1, "show_shots": 0, "show_result": 0, "review": true}"#,
                                                 with: "keep")
            #expect(answer.contains(#""outcome":"kept""#), "\(answer)")
            // The booth's last event tells its end: the camera shown again.
            #expect(await listener.output(containing: #""event":"cleared""#), "\(listener.outputSoFar)")
            let sent = listener.outputSoFar.split(separator: "\n").filter { $0.hasPrefix("data: ") }
                .compactMap { try? JSONSerialization.jsonObject(with: Data($0.dropFirst(6).utf8)) as? [String: Any] }
            return try Self.operatorEvents(sent)
        }

        #expect(fromCommandLine == fromTheAPI)
        #expect(fromTheAPI.first == #"{"event":"shot","number":1,"of":1,"version":1}"#, "\(fromTheAPI)")
        #expect(fromTheAPI.contains(#"{"event":"countdown","seconds_left":3,"version":1}"#), "the default countdown: \(fromTheAPI)")
        #expect(fromTheAPI.contains(#"{"count":2,"event":"reviewing","timeout":30,"version":1}"#), "the shot and its composition, the default review: \(fromTheAPI)")
        #expect(fromTheAPI.contains(#"{"answered":true,"count":2,"event":"kept","version":1}"#), "\(fromTheAPI)")
    }

    @Test("A description file's review, a capture's and the API's wait the same 30 s unless told otherwise")
    func reviewDefaultsAlike() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let file = try folder.file("review.camctl", holding: "camera test\nresolution 320x240\npreview fakesink\ncapture\nreview\n")
        var timeouts: [Double?] = []
        for arguments in [["run", file, "--json"],
                          ["capture", "--device", "test", "--resolution", "320x240", "--sink", "fakesink", "--review", "--json"]] {
            let run = try camctl.start(arguments, writingInput: true)
            #expect(await run.output(containing: #""event":"reviewing""#), "\(run.outputSoFar)")
            run.write("discard\n")
            let result = await run.finished()
            #expect(result.status == 0, "\(result.standardError)")
            let reviewing = Camctl.objects(result.standardOutput).first { $0["event"] as? String == "reviewing" }
            timeouts.append(reviewing?["timeout"] as? Double)
        }
        let sent = try await ServedCamera.listening(camctl: camctl) { served, listener in
            #expect(try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "hold"}"#]).object["outcome"] as? String == "held")
            #expect(try await served.json("/api/capture", ["-X", "POST"]).status == 200)
            _ = try await Self.answered(served, listener, asking: #"{"action": "review"}"#, with: "discard")
            let line = try #require(listener.outputSoFar.split(separator: "\n").first { $0.contains(#""event":"reviewing""#) })
            return try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any]
        }
        timeouts.append(sent?["timeout"] as? Double)
        #expect(timeouts == [30, 30, 30])
    }

    @Test("A fleet node publishes every event as /api/events sends it, byte for byte, a saved photo's record and link included",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func mqttEventsAlike() async throws {
        let broker = try await Broker()
        let served = try await ServedCamera(extra: ["--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "words", "--node", "a"])
        defer { served.process.send(SIGTERM) }
        let listener = try await served.listenToEvents()
        defer { listener.send(SIGKILL) }
        #expect(await until { (try? await broker.next(on: "camctl/words/a/status", within: 1))?.contains("online") == true },
                "the node is connected")
        let watcher = try await broker.watch("camctl/words/a/events", probe: "camctl/words/a/events")
        defer { watcher.send(SIGKILL) }
        #expect(try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "capture", "countdown": 1}"#]).object["outcome"] as? String
                == "photos")
        // Each ends with the saved photo's event.
        #expect(await listener.output(containing: #""event":"photo""#), "\(listener.outputSoFar)")
        #expect(await watcher.output(containing: #""event":"photo""#), "\(watcher.outputSoFar)")
        let sent = listener.outputSoFar.split(separator: "\n").filter { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
        let published = watcher.outputSoFar.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("camctl/words/a/events ") else { return nil }
            let payload = String(line.dropFirst("camctl/words/a/events ".count))
            return payload.contains(#""probe""#) ? nil : payload  // the watcher's own probes
        }
        #expect(published == sent, "MQTT: \(published)\nSSE: \(sent)")
        #expect(sent.contains(#"{"event":"countdown","seconds_left":1,"version":1}"#), "\(sent)")
        let photo = try #require(sent.last.flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        #expect(photo["event"] as? String == "photo" && photo["sha256"] is String && (photo["url"] as? String)?.hasPrefix("http://") == true,
                "\(photo)")
    }

    @Test("A movie is told alike by record --json and the API: the recording event's keys, and the kept movie's record's")
    func movieRecordsAlike() async throws {
        let camctl = try Camctl()
        let recorded = try await camctl("record", "--device", "test", "--resolution", "320x240", "--duration", "1", "--json")
        #expect(recorded.status == 0, "\(recorded.standardError)")
        let printed = Camctl.objects(recorded.standardOutput)
        let printedEvent = try #require(printed.first { $0["event"] as? String == "recording" }, "\(printed)")
        let printedMovie = try #require(Camctl.records(recorded.standardOutput).first, "\(printed)")

        let (sentEvent, answeredMovie) = try await ServedCamera.listening { served, listener in
            #expect(try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "record_start"}"#]).object["outcome"] as? String
                    == "recording")
            #expect(await listener.output(containing: #""event":"recording""#), "\(listener.outputSoFar)")
            // A movie holds its whole fragments (a second each): two seconds of frames pass first.
            #expect(await served.cameraFrames(60), "two seconds of frames pass")
            let stopped = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "record_stop"}"#])
            let line = try #require(listener.outputSoFar.split(separator: "\n").first { $0.contains(#""event":"recording""#) })
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)) as? [String: Any])
            return (event, try #require(stopped.object["movie"] as? [String: Any], "\(stopped.object)"))
        }
        #expect(Set(printedEvent.keys) == Set(sentEvent.keys), "\(printedEvent) \(sentEvent)")
        #expect(Set(printedMovie.keys) == Set(answeredMovie.keys), "\(printedMovie.keys.sorted()) \(answeredMovie.keys.sorted())")
        #expect(printedMovie["kind"] as? String == "movie" && answeredMovie["kind"] as? String == "movie")
    }
}
