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

    /// The rows as BENCHMARKS.md's table lines (a partial run prints them, to replace its rows there).
    var tableRows: String {
        rows.map { row in
            "| \(row.name) | \(row.camctl.formatted()) \(row.unit) | \(row.referenceName): "
                + "\(row.reference.formatted()) \(row.unit) | \(String(format: "%.2f", row.ratio)) | "
                + (row.goal.map { "\($0.statement): " + ($0.isMet ? "met" : "**not met**") } ?? "") + " |\n"
        }.joined()
    }

    /// BENCHMARKS.md: this run's header and table, then the text after the table in `existing`
    /// (how each row is measured, what limits the goals not met), which is written by hand and
    /// kept from run to run.
    func markdown(keepingTextOf existing: String?) -> String {
        let date = ISO8601DateFormatter().string(from: Date())
        let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + "\(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB"
        return """
            # Benchmarks

            Measured by `scripts/bench` on \(date), \(machine), \
            GStreamer \(GStreamerRuntime.version). Each figure is the median of \(runs) runs after a \
            warm-up, with the range in brackets; camctl and the reference run interleaved in the same \
            process run, so they see the same machine. The ratio is camctl's median over the reference's.

            | measurement | camctl | reference | ratio | goal |
            |---|---|---|---|---|

            """ + tableRows + (existing.map(Self.textAfterTable) ?? "")
    }

    /// What follows the table in a BENCHMARKS.md: everything after its last table line.
    static func textAfterTable(_ markdown: String) -> String {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| measurement |") }) else { return "" }
        let end = lines[header...].firstIndex { !$0.hasPrefix("|") } ?? lines.endIndex
        return lines[end...].joined(separator: "\n")
    }
}
