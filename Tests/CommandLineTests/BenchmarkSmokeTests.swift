import Foundation
import TestSupport
import Testing

@Suite("camctl-bench starts (the benchmarks themselves run by hand)", .timeLimit(.minutes(1)))
struct BenchmarkSmokeTests {
    @Test("The shutter-lag group runs, camerabin reference included, and prints its rows without writing BENCHMARKS.md")
    func shutterGroupRuns() throws {
        let folder = try TemporaryFolder()
        let result = try ChildProcess.runBuilt("camctl-bench", ["--only", "shutter", "--runs", "1"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("camerabin start-capture to image-done"))
        #expect(result.standardOutput.split(separator: "\n").filter { $0.contains("Shutter lag") }.count == 4)
        #expect(!FileManager.default.fileExists(atPath: folder.path("BENCHMARKS.md")))
    }
}
