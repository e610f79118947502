import TestSupport
import Testing

@Suite("No GStreamer object outlives its Swift owner", .startsPrograms)
struct LeakTests {
    static let tracerEnvironment = [
        "GST_TRACERS": "leaks",
        "GST_DEBUG": "GST_TRACER:7",
        "SWIFT_BACKTRACE": "enable=no",
    ]

    /// The tracer's reports of objects still alive (its format declarations aside).
    static func aliveObjects(_ log: String) -> [Substring] {
        log.split(separator: "\n").filter { $0.contains("object-alive, type-name=(string)") && !$0.contains("%s") }
    }

    /// Runs the probe with `arguments` under the tracer; expects it to say `report` and leave nothing alive.
    static func expectNothingAlive(_ arguments: [String], reporting report: String) async throws {
        let result = try await ChildProcess.runBuilt("gst-leak-probe", arguments, environment: Self.tracerEnvironment)
        // The tracer's own lines left out, so what went wrong shows.
        #expect(result.status == 0, "\(result.standardError.split(separator: "\n").filter { !$0.contains("GST_TRACER") }.suffix(40).joined(separator: "\n"))")
        #expect(result.standardOutput.contains(report), "\(result.standardOutput)")
        let alive = Self.aliveObjects(result.standardError)
        #expect(alive.isEmpty, "still alive:\n\(alive.prefix(20).joined(separator: "\n"))")
        #expect(!result.standardError.contains("Leaks detected"))
    }

    @Test("Hundreds of frames through app sink, Swift and app source leave nothing alive")
    func noLeaks() async throws {
        try await Self.expectNothingAlive(["300"], reporting: "frames passed: 300, photos encoded: 300")
    }

    @Test("The same check catches a buffer kept on purpose")
    func leakIsDetected() async throws {
        let result = try await ChildProcess.runBuilt("gst-leak-probe", ["20", "--leak-on-purpose"], environment: Self.tracerEnvironment)
        #expect(result.standardOutput.contains("frames passed: 20"),
                "status \(result.status): \(result.standardError.split(separator: "\n").filter { !$0.contains("GST_TRACER") }.suffix(10))")
        let alive = Self.aliveObjects(result.standardError)
        #expect(alive.contains { $0.contains("type-name=(string)GstBuffer") })
        #expect(alive.contains { $0.contains("type-name=(string)GstMemory") })
    }

    @Test("A hundred capture-session start/stop cycles, with photos, camera switches, live filter, zoom and aspect changes, frames, a preview, a file camera, HEIC photos, a composition, a movie and a booth's clip, leave nothing alive")
    func sessionCyclesDoNotLeak() async throws {
        try await Self.expectNothingAlive(["--session", "100"], reporting: "session cycles: 100, photos: 35")
    }

    @Test("A session's live H.264 served over RTSP and watched three times in turn leaves nothing alive")
    func rtspDoesNotLeak() async throws {
        try await Self.expectNothingAlive(["--rtsp", "3"], reporting: "rtsp buffers received: 60")
    }
}
