import Foundation
import TestSupport

/// Runs the built camctl with a library of the test's own, and as long to stop cleanly after an
/// interrupt as a loaded machine may need (`CAMCTL_STOP_GRACE`, 2 minutes instead of 3 seconds):
/// what a test checks is the clean stop, not how fast the machine is. A test of the grace sets it.
struct Camctl {
    let library: TemporaryFolder

    init() throws {
        library = try TemporaryFolder()
    }

    /// The library, and the grace to stop in.
    private var defaultEnvironment: [String: String] {
        ["CAMCTL_LIBRARY": library.url.path, "CAMCTL_STOP_GRACE": "120"]
    }

    func callAsFunction(_ arguments: String..., environment: [String: String] = [:]) async throws -> ChildProcess.Result {
        try await run(arguments, environment: environment)
    }

    func run(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil) async throws -> ChildProcess.Result {
        try await ChildProcess.runBuilt("camctl", arguments, environment: defaultEnvironment.merging(environment) { $1 },
                                        in: directory)
    }

    func start(_ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
               writingInput: Bool = false) throws -> ChildProcess.Running {
        try ChildProcess.Running(built: "camctl", arguments,
                                 environment: defaultEnvironment.merging(environment) { $1 }, in: directory,
                                 writingInput: writingInput)
    }

    /// camctl run in a terminal (script(1) gives it one), each key typed once the terminal has
    /// shown the text it waits for since the key before (a prompt shown again counts again), and
    /// `after` seconds more: its time counts from what camctl said, not from when a loaded machine
    /// got camctl started. The terminal's output (standard output and error together) comes back
    /// once camctl ends.
    func inTerminal(_ arguments: [String], keys: [(when: String, after: Double, key: String)]) async throws -> ChildProcess.Result {
        let binary = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let terminal = try ChildProcess.Running("/usr/bin/script", ["-qfec", ([binary] + arguments).joined(separator: " "), "/dev/null"],
                                                environment: defaultEnvironment, writingInput: true)
        var shown = 0  // the output's characters shown before the last key
        for (text, delay, key) in keys {
            guard await until({ terminal.outputSoFar.dropFirst(shown).contains(text) }) else { break }  // the result tells what was shown
            try await Task.sleep(for: .seconds(delay))
            shown = terminal.outputSoFar.count
            terminal.write(key)
        }
        return await terminal.finished(timeout: 120)
    }

    /// The JSON objects printed one per line.
    static func objects(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// The records printed one per line (photos, as `photo` events; movies), without the other
    /// events printed among them.
    static func records(_ output: String) -> [[String: Any]] {
        objects(output).filter { $0["event"] == nil || $0["event"] as? String == "photo" }
    }

    /// The library's photos, as `camctl library list --json` prints them.
    func photos() async throws -> [[String: Any]] {
        Self.objects(try await self("library", "list", "--json").standardOutput)
    }

    /// A lossless PNG of a test pattern, made by gst-launch-1.0, to use as a camera and as a reference.
    static func testPicture(_ path: String, width: Int, height: Int, pattern: String = "pinwheel") async throws {
        let made = try await ChildProcess.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=\(pattern)",
                                                           "!", "video/x-raw,width=\(width),height=\(height)", "!", "pngenc",
                                                           "!", "filesink", "location=\(path)"])
        guard made.status == 0 else { throw ChildProcess.Failure(message: made.standardError) }
    }

    /// `exiftool -s3` values of tags, one per line.
    static func exif(_ path: String, _ tags: String...) async throws -> [String] {
        try await ChildProcess.run("exiftool", ["-s3"] + tags.map { "-" + $0 } + [path]).standardOutput
            .split(separator: "\n").map(String.init)
    }
}
