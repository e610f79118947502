import Foundation
import OperatorWire

/// `camctl serve` on a 1920x1080@30 test camera: a snapshot's time from request to last byte
/// against the camera's frame interval, and 20 clients' asking at once against one's; the live picture's age (the camera's capture to a part's
/// last byte at the client) for 1 and 20 viewers against one frame interval and one JPEG encode;
/// camctl's CPU for 20 viewers against one. Measured by `scripts/serve-probe.py`.
struct ServeBenchmarks {
    let folder: String
    /// How long each viewing run is measured.
    let seconds = 5.0
    static let frameInterval = 1000.0 / 30

    func run() throws -> [BenchmarkRow] {
        let server = quietProcess(StartUpBenchmark.camctl, ["serve", "--device", "test", "--resolution", "1920x1080@30",
                                                             "--listen", "127.0.0.1:0", "--json", "--library", folder + "/library"])
        let output = Pipe()
        server.standardOutput = output
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let port = try Self.port(from: output)
        let snapshots = try probe(["snapshot", "\(port)", "30"])
        let together = try probe(["snapshots", "\(port)", "20", "30"])
        let one = try probe(["stream", "\(port)", "1", "\(seconds)", "\(server.processIdentifier)"])
        let twenty = try probe(["stream", "\(port)", "20", "\(seconds)", "\(server.processIdentifier)"])
        let encode = try Measurement(samples: (0..<3).map { _ in try encodeMilliseconds() })
        let interval = Measurement(samples: [Self.frameInterval])
        let liveReference = Measurement(samples: encode.samples.map { $0 + Self.frameInterval })
        let snapshot = Measurement(samples: snapshots.ms)
        return [
            BenchmarkRow(name: "Snapshot, request to last byte: GET /snapshot.jpg of camctl serve, 1920x1080@30 (the held frame, encoded)",
                         unit: "ms", camctl: snapshot, reference: interval, referenceName: "the camera's frame interval")
                .goal("≤ 10 ms", met: snapshot.median <= 10),
            BenchmarkRow(name: "Snapshots, 20 clients asking at once: GET /snapshot.jpg of camctl serve, 1920x1080@30, the first request to the last client's last byte (one encode shared)",
                         unit: "ms", camctl: Measurement(samples: together.ms), reference: snapshot,
                         referenceName: "one client's snapshot").goal(ratioAtMost: 3),
            BenchmarkRow(name: "Live picture's age, capture to a part's last byte: GET /stream.mjpg, 1 viewer, 1280x720 parts",
                         unit: "ms", camctl: Measurement(samples: one.ms), reference: liveReference,
                         referenceName: "a frame interval and one 1280x720 jpegenc encode").goal(ratioAtMost: 1),
            BenchmarkRow(name: "Live picture's age, capture to a part's last byte: GET /stream.mjpg, 20 viewers, 1280x720 parts",
                         unit: "ms", camctl: Measurement(samples: twenty.ms), reference: liveReference,
                         referenceName: "a frame interval and one 1280x720 jpegenc encode").goal(ratioAtMost: 1),
            BenchmarkRow(name: "camctl serve's CPU for \(Int(seconds)) s of the live picture: 20 viewers against 1",
                         unit: "CPU s", camctl: Measurement(samples: [twenty.cpu]), reference: Measurement(samples: [one.cpu]),
                         referenceName: "camctl serve with 1 viewer").goal(ratioAtMost: 1.2),
        ]
    }

    /// The port from the server's first line (`{"event": "serving", "port": N, …}`).
    private static func port(from output: Pipe) throws -> Int {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchmarkFailure("camctl serve ended before serving") }
            line += chunk
        }
        guard case .serving(_, let port, _, _, _)? = try? WireJSON.decode(EventRecord.self, from: line.prefix { $0 != UInt8(ascii: "\n") }) else {
            throw BenchmarkFailure("camctl serve did not say its port")
        }
        return port
    }

    private struct Probe: Decodable {
        let ms: [Double]
        let cpu: Double?
    }

    /// `scripts/serve-probe.py` with `arguments`, its figures.
    private func probe(_ arguments: [String]) throws -> (ms: [Double], cpu: Double) {
        let probe = try runProbe("serve-probe.py", arguments, as: Probe.self)
        guard !probe.ms.isEmpty else { throw BenchmarkFailure("serve-probe.py \(arguments.joined(separator: " ")) measured nothing") }
        return (probe.ms, probe.cpu ?? 0)
    }

    /// What one 1280x720 JPEG encode takes: gst-launch-1.0 encoding 150 test frames, per frame.
    private func encodeMilliseconds() throws -> Double {
        let frames = 150
        let seconds = try timeProcess("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=\(frames)", "!",
                                                                  "video/x-raw,format=I420,width=1280,height=720", "!", "jpegenc",
                                                                  "quality=80", "!", "fakesink"])
        return seconds * 1000 / Double(frames)
    }
}
