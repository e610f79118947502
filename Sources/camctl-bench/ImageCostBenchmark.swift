import CameraKit
import GStreamer

/// What filters, zoom, words and a green screen cost: the frames per second one session delivers
/// to a preview and to Swift with each setting, against the same session with none, measured
/// alternately in the same run. The 1920x1080 test camera is asked for 300 fps, more than this
/// machine makes, so the rate is what the pipeline can do; the settings are changed live between
/// measurements. A setting left out builds nothing, so the session with none is what it costs unused.
struct ImageCostBenchmark {
    let seconds = 2.0
    /// The green screen's background picture.
    let background: String

    /// Writes the background into `folder`.
    init(folder: String) throws {
        background = folder + "/background.png"
        let made = try timeProcess("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=pinwheel", "!",
                                                              "video/x-raw,width=1920,height=1080", "!", "pngenc", "!", "filesink", "location=\(background)"])
        _ = made
    }

    var cases: [(name: String, settings: ImageSettings)] {
        get throws {
        func settings(_ change: (inout ImageSettings) -> Void) -> ImageSettings {
            var settings = ImageSettings()
            change(&settings)
            return settings
        }
        let greenScreen = try GreenScreen(path: background)
        return [
            ("filter sepia (a tone)", settings { $0.filters = [.sepia] }),
            ("filters chrome+warm+fade (three tones)", settings { $0.filters = [.chrome, .warm, .fade] }),
            ("filter heat (coloreffects, through RGB)", settings { $0.filters = [.heat] }),
            ("brightness 0.1, contrast 1.2 (videobalance)", settings { $0.brightness = 0.1; $0.contrast = 1.2 }),
            ("zoom 2", settings { $0.zoom = 2 }),
            ("a caption (textoverlay)", settings { $0.texts = [TextMark(.caption("Anna & Ben 2026"))] }),
            ("a stamp to the millisecond (drawn anew every frame)", settings { $0.texts = [TextMark(.stamp(format: "%H:%M:%S.%3N"))] }),
            ("a green screen (alpha, and the background laid under each frame)", settings { $0.greenScreen = greenScreen }),
        ]
        }
    }

    func run(runs: Int) async throws -> [BenchmarkRow] {
        var configuration = SessionConfiguration(camera: .testCamera())
        configuration.format = FormatRequest(width: 1920, height: 1080, frameRate: Fraction(300))
        configuration.preview = PreviewConfiguration(sink: "fakesink sync=false")
        configuration.videoData = VideoDataConfiguration()
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        let cases = try self.cases
        var plain: [Double] = [], filtered = Array(repeating: [Double](), count: cases.count)
        do {
            for round in 0...runs {
                try await session.changeImage(to: ImageSettings())
                let rate = try await framesPerSecond(session)
                var rates: [Double] = []
                for (_, settings) in cases {
                    try await session.changeImage(to: settings)
                    rates.append(try await framesPerSecond(session))
                }
                guard round > 0 else { continue }  // the first round warms up
                plain.append(rate)
                for (index, value) in rates.enumerated() { filtered[index].append(value) }
            }
        } catch {
            await session.stop()
            throw error
        }
        await session.stop()
        return cases.enumerated().map { index, item in
            BenchmarkRow(name: "Preview and frames into Swift with \(item.name), 1920x1080 test camera as fast as it goes",
                         unit: "frames/s", camctl: Measurement(samples: filtered[index]), reference: Measurement(samples: plain),
                         referenceName: "the same session without filters or zoom")
        }
    }

    private func framesPerSecond(_ session: CaptureSession) async throws -> Double {
        var received = 0
        let elapsed = try await measureSeconds {
            let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
            for await frame in session.videoDataOutput.frames(bufferingNewest: 4) {
                _ = try frame.withUnsafeBytes { $0[0] }
                received += 1
                if ContinuousClock.now >= end { break }
            }
        }
        return Double(received) / elapsed
    }
}
