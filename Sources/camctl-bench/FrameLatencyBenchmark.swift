import GStreamer
import Synchronization

/// Latency from a live camera's buffer timestamp (the running time the frame was taken at) to a
/// Swift consumer reading `AppSink.samples()`, against the same frames' arrival at the app sink's
/// pad on GStreamer's streaming thread, where a C sink such as fakesink would have them.
struct FrameLatencyBenchmark {
    let width = 1920, height = 1080, frameRate = 30
    let framesPerRun = 60

    func run(runs: Int) async throws -> BenchmarkRow {
        var inSwift: [Double] = [], atSink: [Double] = []
        for run in 0...runs {
            let (swift, sink) = try await measure()
            if run > 0 { inSwift += swift; atSink += sink }  // the first run warms up
        }
        return BenchmarkRow(
            name: "Latency from a live \(width)x\(height)@\(frameRate) camera's buffer timestamp to the Swift consumer "
                + "(\(runs) runs of \(framesPerRun) frames)",
            unit: "ms", camctl: Measurement(samples: inSwift), reference: Measurement(samples: atSink),
            referenceName: "the same frames at the app sink's pad, on the streaming thread")
    }

    /// The latencies of one run's frames, in milliseconds: in Swift, and at the sink's pad.
    private func measure() async throws -> (inSwift: [Double], atSink: [Double]) {
        let pipeline = try Pipeline(describing: """
            videotestsrc is-live=true ! video/x-raw,format=I420,width=\(width),height=\(height),framerate=\(frameRate)/1 \
            ! appsink name=frames sync=false
            """)
        guard let sink = pipeline.element(named: "frames", as: AppSink.self), let pad = sink.staticPad(named: "sink") else {
            throw BenchmarkFailure("the latency pipeline has no app sink")
        }
        let atSink = Mutex<[Double]>([])
        let probe = pad.addProbe(.buffer) { info in
            if let taken = info.buffer?.presentationTime, let now = pipeline.runningTime {
                atSink.withLock { $0.append(milliseconds(from: taken, to: now)) }
            }
            return .pass
        }
        defer { probe.remove() }
        let stream = sink.samples(.keepOldest(8))
        try await pipeline.play()
        var inSwift: [Double] = []
        for await frame in stream {
            guard let taken = frame.buffer?.presentationTime, let now = pipeline.runningTime else { continue }
            _ = try frame.withUnsafeBytes { $0[0] }
            inSwift.append(milliseconds(from: taken, to: now))
            if inSwift.count == framesPerRun { break }
        }
        try await pipeline.stop()
        return (inSwift, atSink.withLock { Array($0.prefix(framesPerRun)) })
    }
}

private func milliseconds(from start: ClockTime, to end: ClockTime) -> Double {
    (Double(end.rawValue) - Double(start.rawValue)) / 1e6
}
