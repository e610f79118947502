import Foundation
import TestSupport
import Testing

@Suite("camctl-bench starts (the benchmarks themselves run by hand)", .startsPrograms)
struct BenchmarkSmokeTests {
    // The smallest group, so this test does not hold one of the test runner's two threads for long.
    @Test("The latency group runs and prints its row without writing BENCHMARKS.md")
    func latencyGroupRuns() async throws {
        let folder = try TemporaryFolder()
        let result = try await ChildProcess.runBuilt("camctl-bench", ["--only", "latency", "--runs", "1"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        let rows = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("Latency from a live") }
        #expect(rows.count == 1 && rows[0].contains("ratio"), "\(result.standardOutput)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("BENCHMARKS.md")))
    }
}
