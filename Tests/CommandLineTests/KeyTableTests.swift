import Foundation
import Glibc
import TestSupport
import Testing

/// The keys do the same in every command that reads them.
@Suite("One key table", .startsPrograms, .enabled(if: ChildProcess.isInstalled("script"), "needs script(1) for a terminal"))
struct KeyTableTests {
    /// The keys every camera command shares, each with what the terminal then says.
    static let shared: [(when: String, key: String)] = [
        ("filter: ", "+"), ("zoom: 1.25x", "-"), ("zoom: 1.00x", "p"), ("preview paused", "p"), ("preview resumed", "s"), ("switch", "m"),
    ]

    @Test("f, +, -, p, s and m do the same in preview, record, capture, booth and run; each command's own end comes last",
          arguments: ["preview", "record", "capture", "booth", "run"])
    func sameKeys(command: String) async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let camera = ["--device", "test", "--resolution", "320x240", "--sink", "fakesink"]
        let (arguments, started): ([String], String) = switch command {
        case "preview": (["preview"] + camera + ["--duration", "600"], "previewing")
        case "record": (["record"] + camera, "recording into")
        case "capture": (["capture"] + camera + ["--countdown", "600"], "taking the photo in")
        case "booth": (["booth"] + camera + ["--countdown", "600", "--shots", "1", "--show-result", "0"], "taking the photo in")
        default: (["run", try folder.file("countdown.camctl", holding: "camera test\nresolution 320x240\npreview fakesink\ncountdown 600\ncapture\n")],
                  "taking the photo in")
        }
        // m pauses a movie, and says so where there is none; the end: q, or the shutter during a countdown.
        let moviePause = command == "record" ? "recording paused" : "no movie is being recorded"
        let ending = command == "record" ? [("recording paused", "m"), ("recording resumed", "q")]
            : command == "preview" ? [(moviePause, "q")] : [(moviePause, " ")]
        let keys = [(started, "f")] + Self.shared + ending
        let result = try await camctl.inTerminal(arguments, keys: keys.map { (when: $0.0, after: 0, key: $0.1) })
        #expect(result.status == 0, "\(result.standardOutput)")
        for (said, _) in keys.dropFirst() {
            #expect(result.standardOutput.contains(said), "\(command) did not say \(said): \(result.standardOutput)")
        }
        // p paused the preview, never the movie; the shutter took the photo a countdown waited for.
        #expect(!result.standardOutput.contains("recording paused (p"), "\(result.standardOutput)")
        let kept = try await camctl.photos()
        switch command {
        case "record": #expect(kept.map { $0["kind"] as? String } == ["movie"], "\(kept)")
        case "preview": #expect(kept.isEmpty, "\(kept)")
        case "booth": #expect(kept.count == 2, "the shot and its composition: \(kept)")
        default: #expect(kept.count == 1, "\(kept)")
        }
    }

    @Test("SIGUSR1 takes a photo in serve as in every other command, told to the page's clients")
    func serveTakesSIGUSR1() async throws {
        try await ServedCamera.listening { (served, listener) async throws in
            served.process.send(SIGUSR1)
            #expect(await listener.output(containing: #""event":"photo""#), "\(listener.outputSoFar)")
            #expect(try await served.json("/api/photos").object["total"] as? Int == 1)
        }
    }
}
