// camctl-bench: measures camctl against the same work done by gst-launch-1.0 in the same run,
// and writes the table to BENCHMARKS.md.
//
//   swift run -c release camctl-bench [--runs N] [--output BENCHMARKS.md]

import Foundation
import GStreamer

let options = BenchmarkOptions.parse(CommandLine.arguments.dropFirst())
var rows: [BenchmarkRow] = []
for benchmark in [FrameDeliveryBenchmark(frames: 600, width: 1920, height: 1080)] {
    rows.append(try await benchmark.run(runs: options.runs))
    FileHandle.standardError.write(Data("\(rows.last!.name): done\n".utf8))
}
let report = BenchmarkReport(rows: rows, runs: options.runs)
print(report.table)
try report.markdown.write(toFile: options.output, atomically: true, encoding: .utf8)
