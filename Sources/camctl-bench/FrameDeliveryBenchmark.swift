import GStreamer

/// Frames per second that an app sink delivers into a Swift consumer, against
/// `gst-launch-1.0 … ! fakesink` on the same non-live source.
struct FrameDeliveryBenchmark {
    let frames: Int
    let width: Int
    let height: Int

    private var source: String {
        "videotestsrc num-buffers=\(frames) ! video/x-raw,format=I420,width=\(width),height=\(height),framerate=30/1"
    }

    func run(runs: Int) async throws -> BenchmarkRow {
        _ = try await swiftFramesPerSecond()  // warm-up: plugin registry, caches
        _ = try gstLaunchFramesPerSecondHere()
        var camctl: [Double] = [], reference: [Double] = []
        for _ in 0..<runs {  // interleaved, so both sides see the same machine load
            camctl.append(try await swiftFramesPerSecond())
            reference.append(try gstLaunchFramesPerSecondHere())
        }
        return BenchmarkRow(
            name: "Frame delivery into Swift, \(width)x\(height) I420, \(frames) frames",
            unit: "frames/s", camctl: Measurement(samples: camctl), reference: Measurement(samples: reference),
            referenceName: "gst-launch-1.0 … ! fakesink").goal(ratioAtLeast: 0.95)
    }

    /// Plays the source into an app sink and reads one byte of every frame in place.
    private func swiftFramesPerSecond() async throws -> Double {
        let pipeline = try Pipeline(describing: "\(source) ! appsink name=frames sync=false")
        guard let sink = pipeline.element(named: "frames", as: AppSink.self) else {
            throw BenchmarkFailure("the benchmark pipeline has no app sink")
        }
        let stream = sink.samples(.keepOldest(8))
        var received = 0
        var checksum = 0
        let seconds = try await measureSeconds {
            try await pipeline.play()
            for await frame in stream {
                checksum &+= Int(try frame.withUnsafeBytes { $0[$0.count / 2] })
                received += 1
            }
        }
        try await pipeline.stop()
        guard received + stream.droppedCount == frames else {
            throw BenchmarkFailure("received \(received) of \(frames) frames")
        }
        _ = checksum
        return Double(received) / seconds
    }

    private func gstLaunchFramesPerSecondHere() throws -> Double {
        try gstLaunchFramesPerSecond("\(source) ! fakesink sync=false", frames: frames)
    }
}

/// Times a gst-launch pipeline over `frames` buffers and over one, so process start-up cancels out.
func gstLaunchFramesPerSecond(_ description: String, frames: Int) throws -> Double {
    let arguments = { (count: Int) in
        ["-q"] + description.replacingOccurrences(of: "num-buffers=\(frames)", with: "num-buffers=\(count)")
            .split(separator: " ").map(String.init)
    }
    let all = try timeProcess("/usr/bin/gst-launch-1.0", arguments(frames))
    let one = try timeProcess("/usr/bin/gst-launch-1.0", arguments(1))
    return Double(frames - 1) / max(all - one, 1e-6)
}
