import Checksums
import Foundation

/// SHA-256 as camctl makes it (every fleet photo's checksum; the guest links' HMAC), in memory,
/// against `openssl dgst -sha256` of the same bytes from a file (the page cache), its time for an
/// empty file subtracted so the process's start-up cancels out.
struct ChecksumBenchmark {
    let megabytes = 256
    let folder: String

    func run(runs: Int) async throws -> BenchmarkRow {
        let bytes = [UInt8](repeating: 0xa5, count: megabytes * 1_048_576)
        let file = folder + "/bytes", empty = folder + "/empty"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        try Data().write(to: URL(fileURLWithPath: empty))
        var camctl: [Double] = [], openssl: [Double] = []
        for round in 0...runs {
            let ours = await measureSeconds { _ = SHA256.hash(bytes) }
            let all = try timeProcess("/usr/bin/openssl", ["dgst", "-sha256", file])
            let none = try timeProcess("/usr/bin/openssl", ["dgst", "-sha256", empty])
            guard round > 0 else { continue }  // the first round warms up
            camctl.append(Double(megabytes) / ours)
            openssl.append(Double(megabytes) / max(all - none, 1e-6))
        }
        return BenchmarkRow(name: "SHA-256 of \(megabytes) MiB", unit: "MiB/s", camctl: Measurement(samples: camctl),
                            reference: Measurement(samples: openssl), referenceName: "openssl dgst -sha256, the same bytes from a file")
    }
}
