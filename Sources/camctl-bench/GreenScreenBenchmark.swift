import CameraKit
import Foundation
import GStreamer

/// A green screen the way camctl keys it (GStreamer's `alpha`, then the background laid under each
/// frame in place by a probe) against the way a gst-launch user would (`alpha` into `compositor`
/// over the background frozen by `imagefreeze`): frames per second of the 1920x1080 test camera
/// asked for 300 fps, more than this machine makes. camctl's session also feeds its still branch,
/// its preview and Swift, which the reference leaves out.
struct GreenScreenBenchmark {
    let frames = 300
    let background: String

    init(folder: String) throws {
        background = folder + "/background.png"
        _ = try timeProcess("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=pinwheel", "!",
                                                       "video/x-raw,width=1920,height=1080", "!", "pngenc", "!", "filesink", "location=\(background)"])
    }

    func run(runs: Int) async throws -> [BenchmarkRow] {
        var configuration = SessionConfiguration(camera: .testCamera())
        configuration.format = FormatRequest(width: 1920, height: 1080, frameRate: Fraction(300))
        configuration.preview = PreviewConfiguration(sink: "fakesink sync=false")
        configuration.videoData = VideoDataConfiguration()
        configuration.image.greenScreen = try GreenScreen(path: background)
        let reference = """
            videotestsrc num-buffers=\(frames) ! video/x-raw,width=1920,height=1080,framerate=300/1 ! alpha method=green ! mix.sink_1 \
            filesrc location=\(background) ! pngdec ! videoconvert ! imagefreeze num-buffers=\(frames) \
            ! video/x-raw,format=AYUV,width=1920,height=1080,framerate=300/1 ! mix.sink_0 \
            compositor name=mix ! videoconvert ! video/x-raw,format=I420 ! fakesink sync=false
            """
        var camctl: [Double] = [], launched: [Double] = []
        for round in 0...runs {
            let session = CaptureSession(configuration: configuration)
            try await session.start()
            let rate: Double
            do {
                var received = 0
                let elapsed = try await measureSeconds {
                    for await frame in session.videoDataOutput.frames(bufferingNewest: 4) {
                        _ = try frame.withUnsafeBytes { $0[0] }
                        received += 1
                        if received == frames { break }
                    }
                }
                rate = Double(received) / elapsed
            } catch {
                await session.stop()
                throw error
            }
            await session.stop()
            let reference = try gstLaunchFramesPerSecond(reference, frames: frames)
            guard round > 0 else { continue }  // the first round warms up
            camctl.append(rate)
            launched.append(reference)
        }
        return [BenchmarkRow(name: "A green screen keyed over a picture, 1920x1080 test camera as fast as it goes", unit: "frames/s",
                             camctl: Measurement(samples: camctl), reference: Measurement(samples: launched),
                             referenceName: "gst-launch-1.0: alpha into compositor over imagefreeze")]
    }
}
