import Foundation
import Glibc

/// A rig of `camctl serve` nodes, each in a network namespace of its own behind a 100 Mbit/s
/// link, the controller behind 1 Gbit/s (`scripts/rig`, measured by `scripts/rig-probe.py`, as
/// root): a command's fan-out and a synchronized capture's skew at 200 nodes, photos lost through
/// killed nodes and broker restarts (mosquitto restarted, or a server of a nats-server cluster
/// lost), a collection against the wire's time and against
/// collecting one photo at a time, and the rig page's load in Chromium and its controller's work.
struct RigBenchmarks {
    let folder: String
    let nodes: Int
    let rounds: Int
    /// The nodes' cameras run at 5 fps (320x240), which 200 of them can on a small machine.
    static let frameInterval = 200.0

    func run() throws -> [BenchmarkRow] {
        guard getuid() == 0 else { throw BenchmarkFailure("the rig rows need root (network namespaces); run scripts/bench --only rig as root") }
        let one = try probe(nodes: 1, folder: folder + "/one")
        let rig = try probe(nodes: nodes, folder: folder + "/rig")
        let cluster = try runProbe("rig-probe.py", [StartUpBenchmark.camctl, "\(nodes)", "\(rounds)", folder + "/nats", "nats"], as: Losses.self)
        let skew = Measurement(samples: rig.skew_ms)
        let wire = Double(rig.collect_bytes * 8) / rig.uplink_bits_per_second
        return [
            BenchmarkRow(name: "A fleet command's fan-out, publication to the last answer: \(nodes) nodes, each in a namespace behind 100 Mbit/s (*rig*)",
                         unit: "ms", camctl: Measurement(samples: rig.fanout_ms), reference: Measurement(samples: one.fanout_ms),
                         referenceName: "one node").goal("≤ 250 ms", met: Measurement(samples: rig.fanout_ms).median <= 250),
            BenchmarkRow(name: "The same fan-out against this machine's floor: the processor time the \(nodes) nodes and the broker spend on one command, over its \(rig.cores) cores (*rig*)",
                         unit: "ms", camctl: Measurement(samples: rig.fanout_ms), reference: Measurement(samples: [rig.command_cpu_ms / Double(rig.cores)]),
                         referenceName: "processor time for one command / cores"),
            BenchmarkRow(name: "Skew of a synchronized capture over \(nodes) nodes at 5 fps (latest less earliest frame instant) (*rig*)",
                         unit: "ms", camctl: skew, reference: Measurement(samples: [Self.frameInterval]),
                         referenceName: "one frame interval at 5 fps").goal("≤ one frame interval + 2 ms", met: skew.median <= Self.frameInterval + 2),
            BenchmarkRow(name: "Photos lost of \(rig.reported) reported saved: 10 captures over \(nodes) nodes, \(rig.killed) killed and started again, the broker restarted twice, then one collection (*rig*)",
                         unit: "photos", camctl: Measurement(samples: [Double(rig.lost)]), reference: Measurement(samples: [Double(rig.reported)]),
                         referenceName: "photos reported saved").goal("0 lost", met: rig.lost == 0),
            BenchmarkRow(name: "Photos lost of \(cluster.reported) reported saved: 10 captures over \(nodes) nodes on a nats-server cluster of three, \(cluster.killed) nodes killed and started again, one server killed and started again, then one collection (*rig*)",
                         unit: "photos", camctl: Measurement(samples: [Double(cluster.lost)]), reference: Measurement(samples: [Double(cluster.reported)]),
                         referenceName: "photos reported saved").goal("0 lost", met: cluster.lost == 0 && cluster.reported > 0),
            BenchmarkRow(name: "Collecting \(nodes) photos of \(rig.photo_bytes / 1024) KiB through the controller's 1 Gbit/s uplink, side by side (*rig*)",
                         unit: "s", camctl: Measurement(samples: [rig.collect_seconds]), reference: Measurement(samples: [wire]),
                         referenceName: "the wire's time for those bytes").goal(ratioAtMost: 1.25),
            BenchmarkRow(name: "Collecting \(nodes) photos of \(rig.photo_bytes / 1024) KiB side by side into memory (tmpfs, no disk to wait for), against the wire's time (*rig*)",
                         unit: "s", camctl: Measurement(samples: [rig.collect_memory_seconds]), reference: Measurement(samples: [wire]),
                         referenceName: "the wire's time for those bytes"),
            BenchmarkRow(name: "Collecting \(nodes) photos of \(rig.photo_bytes / 1024) KiB side by side, against one at a time (*rig*)",
                         unit: "s", camctl: Measurement(samples: [rig.collect_seconds]), reference: Measurement(samples: [rig.collect_one_at_a_time_seconds]),
                         referenceName: "fleet collect --concurrency 1, as the collector was"),
            BenchmarkRow(name: "The rig page with \(nodes) tiles in headless Chromium: asked for to every tile showing its node's picture (*rig*)",
                         unit: "s", camctl: Measurement(samples: rig.page_load_seconds), reference: Measurement(samples: rig.bare_load_seconds),
                         referenceName: "the same tile links as bare images in a static page")
                .goal("≤ 3 s", met: Measurement(samples: rig.page_load_seconds).median <= 3),
            BenchmarkRow(name: String(format: "The controller's share of a core while the page shows \(nodes) tiles, each at %.1f pictures a second (*rig*)",
                                      rig.tile_fps),
                         unit: "cores", camctl: Measurement(samples: [rig.controller_cores]), reference: Measurement(samples: [1]),
                         referenceName: "one core").goal("≤ 1 core", met: rig.controller_cores <= 1),
        ]
    }

    /// The loss through a nats-server cluster that loses a server.
    private struct Losses: Decodable {
        let reported: Int
        let lost: Int
        let killed: Int
    }

    private struct Probe: Decodable {
        let fanout_ms: [Double]
        let skew_ms: [Double]
        let offset_ms: [Double]
        let photo_bytes: Int
        let collect_seconds: Double
        let collect_one_at_a_time_seconds: Double
        let collect_memory_seconds: Double
        let command_cpu_ms: Double
        let cores: Int
        let collect_bytes: Int
        let uplink_bits_per_second: Double
        let reported: Int
        let lost: Int
        let killed: Int
        let page_load_seconds: [Double]
        let bare_load_seconds: [Double]
        let controller_cores: Double
        let tile_fps: Double
    }

    /// `scripts/rig-probe.py` with `nodes` nodes, its figures.
    private func probe(nodes: Int, folder: String) throws -> Probe {
        let probe = try runProbe("rig-probe.py", [StartUpBenchmark.camctl, "\(nodes)", "\(rounds)", folder], as: Probe.self)
        guard !probe.fanout_ms.isEmpty, !probe.skew_ms.isEmpty else { throw BenchmarkFailure("rig-probe.py with \(nodes) nodes measured nothing") }
        return probe
    }
}
