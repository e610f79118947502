import Foundation
import GStreamer

/// The results as a terminal table and as BENCHMARKS.md.
struct BenchmarkReport {
    let rows: [BenchmarkRow]
    let runs: Int

    var table: String {
        rows.map { row in
            "\(row.name): camctl \(row.camctl.formatted()) \(row.unit), \(row.referenceName) "
                + "\(row.reference.formatted()) \(row.unit), ratio \(String(format: "%.2f", row.ratio))"
        }.joined(separator: "\n")
    }

    var markdown: String {
        let date = ISO8601DateFormatter().string(from: Date())
        let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + "\(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB"
        var text = """
            # Benchmarks

            Measured by `swift run -c release camctl-bench` on \(date), \(machine), \
            GStreamer \(GStreamerRuntime.version). Each figure is the median of \(runs) runs after a \
            warm-up, with the range in brackets; camctl and the reference run interleaved in the same \
            process run, so they see the same machine. The ratio is camctl's median over the reference's.

            | measurement | camctl | reference | ratio |
            |---|---|---|---|

            """
        for row in rows {
            text += "| \(row.name) | \(row.camctl.formatted()) \(row.unit) | \(row.referenceName): "
                + "\(row.reference.formatted()) \(row.unit) | \(String(format: "%.2f", row.ratio)) |\n"
        }
        text += """

            How each row is measured:

            - *Frame delivery*: a non-live `videotestsrc` into an `appsink`, every frame handed to a Swift \
            `for await` loop through `AppSink.samples()` and read in place (one byte, no copy). The \
            reference is `gst-launch-1.0` with the same source into `fakesink sync=false`; its time for \
            one frame is subtracted from its time for all frames, so process start-up cancels out. Both \
            sides include the cost of generating the test pattern.

            """
        return text
    }
}
