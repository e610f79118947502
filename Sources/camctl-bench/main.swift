// camctl-bench: measures camctl against the same work done by gst-launch-1.0 in the same run,
// and writes the header and table of BENCHMARKS.md (the text after the table is kept as it is written).
//
//   scripts/bench [--runs N] [--output BENCHMARKS.md] [--only GROUP …] [--soak-minutes N]
//
// Groups: frames, latency, image (what filters, zoom, words and a green screen cost), checksum (SHA-256 against openssl), shutter, burst, heic, resources (memory and CPU, one run of --preview-seconds,
// 60 by default), startup, serve (camctl serve: snapshots, the live picture's age, CPU per viewer), fleet (20 nodes: fan-out, skew),
// movie (camctl record at 1080p30 for --preview-seconds: CPU, memory, stop to file), dslr (libgphoto2's virtual camera against python-gphoto2 and gphoto2), rig (200 nodes in network namespaces, as root), soak (memory over --soak-minutes, 10 by default). A partial run (--only)
// writes its table to stdout only, then its rows as BENCHMARKS.md's table lines.

import Foundation
import GStreamer

let options = BenchmarkOptions.parse(CommandLine.arguments.dropFirst())
var rows: [BenchmarkRow] = []
@MainActor func record(_ row: BenchmarkRow) {
    rows.append(row)
    FileHandle.standardError.write(Data("\(row.name): \(row.camctl.formatted()) \(row.unit)\n".utf8))
}
if options.includes("frames") {
    record(try await FrameDeliveryBenchmark(frames: 600, width: 1920, height: 1080).run(runs: options.runs))
    record(try await VideoDataRateBenchmark().run(runs: options.runs))
}
if options.includes("image") {
    for row in try await withScratchFolder({ try await ImageCostBenchmark(folder: $0).run(runs: options.runs) }) { record(row) }
    for row in try await withScratchFolder({ try await GreenScreenBenchmark(folder: $0).run(runs: options.runs) }) { record(row) }
}
if options.includes("latency") {
    record(try await FrameLatencyBenchmark().run(runs: options.runs))
}
if options.includes("shutter") {
    for row in try await ShutterLagBenchmark(width: 1920, height: 1080, frameRate: 30).run(runs: options.runs) { record(row) }
    for row in try await ShutterLagBenchmark(width: 4032, height: 3024, frameRate: 15).run(runs: options.runs) { record(row) }
}
if options.includes("burst") {
    record(try await BurstBenchmark(width: 1920, height: 1080, frameRate: 240).run(runs: options.runs))
    record(try await BurstBenchmark(width: 4032, height: 3024, frameRate: 60).run(runs: options.runs))
    record(try await BurstBenchmark(width: 1920, height: 1080, frameRate: 60, codec: .hevc, photos: 10).run(runs: options.runs))
    record(try await BurstBenchmark(width: 4032, height: 3024, frameRate: 15, codec: .hevc, photos: 5).run(runs: options.runs))
}
if options.includes("heic") {
    for row in try await withScratchFolder({ try HEICEncodeBenchmark(folder: $0).run(runs: options.runs) }) { record(row) }
}
if options.includes("heic-curve") {
    for row in try await withScratchFolder({ try HEICCurveBenchmark(folder: $0).run() }) { record(row) }
}
if options.includes("resources") {
    for row in try await withScratchFolder({ try ResourceBenchmarks(folder: $0, seconds: options.previewSeconds).run() }) { record(row) }
}
if options.includes("checksum") {
    record(try await withScratchFolder { try await ChecksumBenchmark(folder: $0).run(runs: options.runs) })
}
if options.includes("startup") {
    let startUp = try await withScratchFolder { folder in
        try StartUpBenchmark.all(folder: folder).map { try $0.run(runs: max(options.runs, 10)) }
    }
    for row in startUp { record(row) }
}
if options.includes("serve") {
    for row in try await withScratchFolder({ try ServeBenchmarks(folder: $0).run() }) { record(row) }
}
if options.includes("fleet") {
    for row in try await withScratchFolder({ try FleetBenchmarks(folder: $0, rounds: 20).run() }) { record(row) }
}
if options.includes("movie") {
    for row in try await withScratchFolder({ try MovieBenchmarks(folder: $0, seconds: options.previewSeconds).run(runs: options.runs) }) {
        record(row)
    }
}
if options.includes("rig") {
    for row in try await withScratchFolder({ try RigBenchmarks(folder: $0, nodes: 200, rounds: 10).run() }) { record(row) }
}
if options.includes("dslr") {
    for row in try await withScratchFolder({ try DSLRBenchmarks(folder: $0).run(runs: options.runs) }) { record(row) }
}
if options.includes("soak") {
    record(try await withScratchFolder { try SoakBenchmark(folder: $0, minutes: options.soakMinutes).run() })
}
let report = BenchmarkReport(rows: rows, runs: options.runs)
print(report.table)
if options.groups.isEmpty {
    let existing = try? String(contentsOfFile: options.output, encoding: .utf8)
    try report.markdown(keepingTextOf: existing).write(toFile: options.output, atomically: true, encoding: .utf8)
} else {
    print("\n" + report.tableRows, terminator: "")
}
