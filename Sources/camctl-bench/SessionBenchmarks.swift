import CameraKit
import GStreamer

/// Starts a test-camera session for a benchmark.
func benchmarkSession(width: Int, height: Int, frameRate: Int, videoData: Bool = false) async throws -> CaptureSession {
    var configuration = SessionConfiguration()
    configuration.format = FormatRequest(width: width, height: height, frameRate: Fraction(frameRate))
    configuration.framesDroppedAfterStart = 0
    if videoData { configuration.videoData = VideoDataConfiguration() }
    let session = CaptureSession(configuration: configuration)
    try await session.start()
    _ = try await session.photoOutput.capture()  // warm: frames flow, encoders negotiated
    return session
}

/// The time from a capture request to the encoded JPEG (with EXIF and thumbnail) in memory,
/// against one JPEG encode of the same frame size by gst-launch (its per-frame time).
struct ShutterLagBenchmark {
    let width: Int
    let height: Int
    let frameRate: Int

    func run(runs: Int) async throws -> BenchmarkRow {
        let session = try await benchmarkSession(width: width, height: height, frameRate: frameRate)
        var lags: [Double] = [], ages: [Double] = []
        for _ in 0..<max(runs, 10) {
            var settings = PhotoSettings()
            settings.prioritization = .speed
            var photo: Photo?
            let seconds = try await measureSeconds { photo = try await session.photoOutput.capture(settings) }
            lags.append(seconds * 1000)
            if let request = photo?.requestTime, let frame = photo?.frameTime, request >= frame {
                ages.append(Double(request.nanoseconds - frame.nanoseconds) / 1e6)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        await session.stop()
        var encodeTimes: [Double] = []
        for _ in 0..<runs {
            encodeTimes.append(1000 / (try gstLaunchFramesPerSecond(
                "videotestsrc num-buffers=\(60) ! video/x-raw,format=I420,width=\(width),height=\(height) ! jpegenc ! fakesink sync=false",
                frames: 60)))
        }
        let age = Measurement(samples: ages.isEmpty ? [0] : ages)
        return BenchmarkRow(
            name: "Shutter lag, request to JPEG in memory, \(width)x\(height) (frame age at request \(age.formatted()) ms)",
            unit: "ms", camctl: Measurement(samples: lags), reference: Measurement(samples: encodeTimes),
            referenceName: "one jpegenc frame in gst-launch", higherIsBetter: false)
    }
}

/// Photos per second in a burst of 30, against gst-launch running the same encoder on the same source.
struct BurstBenchmark {
    let width: Int
    let height: Int
    let frameRate: Int
    let photos = 30

    func run(runs: Int) async throws -> BenchmarkRow {
        let session = try await benchmarkSession(width: width, height: height, frameRate: frameRate)
        var camctl: [Double] = [], reference: [Double] = []
        for _ in 0..<runs {
            camctl.append(try await burst(session))
            reference.append(try gstLaunchFramesPerSecond(
                "videotestsrc num-buffers=\(photos) ! video/x-raw,format=I420,width=\(width),height=\(height) ! jpegenc ! fakesink sync=false",
                frames: photos))
        }
        await session.stop()
        return BenchmarkRow(
            name: "Burst of \(photos) JPEG photos, \(width)x\(height) (camera at \(frameRate) fps)",
            unit: "photos/s", camctl: Measurement(samples: camctl), reference: Measurement(samples: reference),
            referenceName: "gst-launch videotestsrc ! jpegenc ! fakesink", higherIsBetter: true)
    }

    /// Takes consecutive frames, each encoded as soon as it arrives.
    private func burst(_ session: CaptureSession) async throws -> Double {
        let output = session.photoOutput
        let seconds = try await measureSeconds {
            _ = try await output.captureBurst(count: photos)
        }
        return Double(photos) / seconds
    }
}

/// The frame rate VideoDataOutput sustains from a live 1080p camera, against the camera's own rate.
struct VideoDataRateBenchmark {
    let frameRate = 120

    func run(runs: Int) async throws -> BenchmarkRow {
        let session = try await benchmarkSession(width: 1920, height: 1080, frameRate: frameRate, videoData: true)
        var rates: [Double] = []
        for _ in 0..<runs {
            let frames = session.videoDataOutput.frames(bufferingNewest: 4)
            var received = 0
            let seconds = try await measureSeconds {
                for await frame in frames {
                    _ = try frame.withUnsafeBytes { $0[0] }
                    received += 1
                    if received == 240 { break }
                }
            }
            rates.append(Double(received) / seconds)
        }
        await session.stop()
        return BenchmarkRow(
            name: "VideoDataOutput from a live 1920x1080 camera at \(frameRate) fps",
            unit: "frames/s", camctl: Measurement(samples: rates),
            reference: Measurement(samples: Array(repeating: Double(frameRate), count: runs)),
            referenceName: "the camera's rate", higherIsBetter: true)
    }
}
