import Foundation

/// A fleet of `camctl serve` nodes on this machine (test camera at 160x120@30, one mosquitto
/// broker): a command's fan-out to 20 nodes against one node, and a synchronized capture's skew
/// and offsets against the frame interval. Measured by `scripts/fleet-probe.py`.
struct FleetBenchmarks {
    let folder: String
    let rounds: Int
    static let frameInterval = 1000.0 / 30
    static let nodes = 20

    func run() throws -> [BenchmarkRow] {
        let one = try probe(nodes: 1, folder: folder + "/one")
        let many = try probe(nodes: Self.nodes, folder: folder + "/many")
        let skew = Measurement(samples: many.skew_ms)
        let offsets = Measurement(samples: many.offset_ms.map(abs))
        return [
            BenchmarkRow(name: "A fleet command's fan-out, publication to the last answer: \(Self.nodes) nodes on this machine, one broker",
                         unit: "ms", camctl: Measurement(samples: many.fanout_ms), reference: Measurement(samples: one.fanout_ms),
                         referenceName: "one node").goal("≤ 100 ms", met: Measurement(samples: many.fanout_ms).median <= 100),
            BenchmarkRow(name: "Skew of a synchronized capture over \(Self.nodes) nodes (latest less earliest frame instant; \(many.missing) photos missing of \(Self.nodes * rounds))",
                         unit: "ms", camctl: skew, reference: Measurement(samples: [Self.frameInterval]),
                         referenceName: "one frame interval at 30 fps").goal(ratioAtMost: 1),
            BenchmarkRow(name: "A node's frame instant from the asked one, \(Self.nodes) nodes (absolute)",
                         unit: "ms", camctl: offsets, reference: Measurement(samples: [Self.frameInterval / 2]),
                         referenceName: "half a frame interval").goal("max ≤ half a frame interval + 2 ms",
                                                                      met: offsets.range.upperBound <= Self.frameInterval / 2 + 2),
        ]
    }

    private struct Probe: Decodable {
        let fanout_ms: [Double]
        let skew_ms: [Double]
        let offset_ms: [Double]
        let missing: Int
    }

    /// `scripts/fleet-probe.py` with `nodes` nodes, its figures.
    private func probe(nodes: Int, folder: String) throws -> Probe {
        let probe = try runProbe("fleet-probe.py", [StartUpBenchmark.camctl, "\(nodes)", "\(rounds)", folder], as: Probe.self)
        guard !probe.fanout_ms.isEmpty, !probe.offset_ms.isEmpty else {
            throw BenchmarkFailure("fleet-probe.py with \(nodes) nodes measured nothing")
        }
        return probe
    }
}
