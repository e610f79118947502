import Foundation

/// Process start to the photo saved (`camctl capture --device test`) against a one-shot command of
/// another tool making the same 1280x720, 1920x1080 or 4032x3024 JPEG, process start to the first preview
/// frame against gst-launch showing the same camera, a photo into a library of 10,000 photos
/// against one into an empty library, and `camctl --version` against
/// `gst-launch-1.0 --version`; run alternately.
struct StartUpBenchmark {
    let name: String
    let camctlArguments: [String]
    let referenceName: String
    let reference: (program: String, arguments: [String])
    /// Where the first frame is written, for a run timed to its first frame instead of its end.
    var firstFrame: String?
    /// The largest ratio issue 7 accepts, if it sets one.
    var ratioGoal: Double?

    /// The photos in the large library a capture is timed into.
    static let largeLibrary = 10_000

    /// camctl, built by the same `scripts/build-release` beside this benchmark.
    static var camctl: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("camctl").path
    }

    static func all(folder: String) throws -> [StartUpBenchmark] {
        let photo = ["capture", "--device", "test", "--resolution", "1920x1080"]
        let gstLaunch = ("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=1920,height=1080",
                                                     "!", "jpegenc", "!", "filesink", "location=\(folder)/gst.jpg"])
        let ffmpeg = ("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080",
                                          "-frames:v", "1", "\(folder)/ffmpeg.jpg"])
        var benchmarks = [
            StartUpBenchmark(name: "Start to photo saved: camctl capture --device test --no-library --output F, 1920x1080",
                             camctlArguments: photo + ["--no-library", "--output", "\(folder)/camctl.jpg"],
                             referenceName: "gst-launch-1.0 videotestsrc num-buffers=1 ! jpegenc ! filesink", reference: gstLaunch,
                             ratioGoal: 1.2),
            StartUpBenchmark(name: "Start to photo saved in the library (and its index row): camctl capture --device test, 1920x1080",
                             camctlArguments: photo + ["--library", "\(folder)/library"],
                             referenceName: "gst-launch-1.0 videotestsrc num-buffers=1 ! jpegenc ! filesink", reference: gstLaunch),
        ]
        // The preview's sink writes the first frame it is given to a file, unbuffered.
        let frameFile = "\(folder)/first-frame.raw"
        let frameSink = "filesink location=\(frameFile) buffer-mode=unbuffered"
        benchmarks.append(StartUpBenchmark(
            name: "Start to first preview frame: camctl preview --device test, 1920x1080@30, the sink writing frames to a file",
            camctlArguments: ["preview", "--device", "test", "--resolution", "1920x1080@30", "--library", "\(folder)/library",
                              "--sink", frameSink],
            referenceName: "gst-launch-1.0 videotestsrc is-live=true ! tee: a full-size branch, and the frames scaled to 1280x720 into the file",
            reference: ("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "is-live=true", "!",
                                                    "video/x-raw,format=I420,width=1920,height=1080,framerate=30/1", "!",
                                                    "tee", "name=t", "t.", "!", "queue", "!", "fakesink", "sync=false", "t.", "!",
                                                    "queue", "!", "videoscale", "!", "videoconvert", "!",
                                                    "video/x-raw,width=1280,height=720", "!"]
                                                   + frameSink.split(separator: " ").map(String.init)),
            firstFrame: frameFile, ratioGoal: 1.5))
        for (width, height) in [(1280, 720), (4032, 3024)] {
            benchmarks.append(StartUpBenchmark(
                name: "Start to photo saved: camctl capture --device test --no-library --output F, \(width)x\(height)",
                camctlArguments: ["capture", "--device", "test", "--resolution", "\(width)x\(height)", "--no-library",
                                  "--output", "\(folder)/camctl-\(width).jpg"],
                referenceName: "gst-launch-1.0 videotestsrc num-buffers=1 ! jpegenc ! filesink",
                reference: ("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=\(width),height=\(height)",
                                                        "!", "jpegenc", "!", "filesink", "location=\(folder)/gst-\(width).jpg"]),
                ratioGoal: 1.2))
        }
        // A library of 10,000 photos (small ones: its opening reads every name and index row, whatever their size).
        let script = folder + "/fill.camctl"
        try Data("camera test\nresolution 160x120@1000\nburst \(largeLibrary)\n".utf8).write(to: URL(fileURLWithPath: script))
        _ = try timeProcess(camctl, ["run", script, "--library", folder + "/large-library"])
        benchmarks.append(StartUpBenchmark(
            name: "Start to photo saved in a library of \(largeLibrary) photos: camctl capture --device test, 1280x720",
            camctlArguments: ["capture", "--device", "test", "--resolution", "1280x720", "--library", folder + "/large-library"],
            referenceName: "the same into an empty library",
            reference: (camctl, ["capture", "--device", "test", "--resolution", "1280x720", "--library", folder + "/small-library"])))
        benchmarks.append(StartUpBenchmark(name: "Start to exit: camctl --version", camctlArguments: ["--version"],
                                           referenceName: "gst-launch-1.0 --version", reference: ("/usr/bin/gst-launch-1.0", ["--version"])))
        if FileManager.default.isExecutableFile(atPath: ffmpeg.0) {
            benchmarks.append(StartUpBenchmark(
                name: "Start to photo saved: camctl capture --device test --no-library --output F, 1920x1080",
                camctlArguments: photo + ["--no-library", "--output", "\(folder)/camctl.jpg"],
                referenceName: "ffmpeg -f lavfi -i testsrc2 -frames:v 1", reference: ffmpeg, ratioGoal: 1))
        }
        return benchmarks
    }

    func run(runs: Int) throws -> BenchmarkRow {
        guard FileManager.default.isExecutableFile(atPath: Self.camctl) else {
            throw BenchmarkFailure("\(Self.camctl) is missing; run scripts/build-release camctl first")
        }
        let time = { (program: String, arguments: [String]) throws -> Double in
            if let firstFrame { try timeToFirstBytes(program, arguments, in: firstFrame) } else { try timeProcess(program, arguments) }
        }
        _ = try time(Self.camctl, camctlArguments)  // warm the file cache and GStreamer's registry
        _ = try time(reference.program, reference.arguments)
        var ours: [Double] = [], theirs: [Double] = []
        for _ in 0..<runs {
            ours.append(try time(Self.camctl, camctlArguments) * 1000)
            theirs.append(try time(reference.program, reference.arguments) * 1000)
        }
        let row = BenchmarkRow(name: name, unit: "ms", camctl: Measurement(samples: ours),
                               reference: Measurement(samples: theirs), referenceName: referenceName)
        return ratioGoal.map { row.goal(ratioAtMost: $0) } ?? row
    }
}
