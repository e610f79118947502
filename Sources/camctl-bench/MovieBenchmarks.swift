import Foundation
import HEIF
import Processes

/// Recording a 1920x1080@30 movie: camctl record's CPU time and peak memory against gst-launch-1.0
/// encoding the same frames with the same x264 settings into the same fragmented MP4, and the
/// time from the stop (SIGUSR2; gst-launch's end of stream on SIGINT) to the finished file; and the
/// same recording with sound (a test tone as AAC) against gst-launch muxing both; and the frames
/// camctl's movie kept of those the camera made, against gst-launch's file of the same frames.
struct MovieBenchmarks {
    let folder: String
    /// How long each recording runs.
    let seconds: Int

    func run(runs: Int) throws -> [BenchmarkRow] {
        let bitRate = 1920 * 1080 * 30 / 8 / 1000  // camctl's own choice at this size and rate
        // The test camera's own picture: the colour bars moving sideways (a still picture costs x264 far less).
        let reference = ["-q", "-e", "videotestsrc", "is-live=true", "horizontal-speed=4", "num-buffers=\(seconds * 30)", "!",
                         "video/x-raw,format=I420,width=1920,height=1080,framerate=30/1", "!",
                         "x264enc", "speed-preset=veryfast", "tune=zerolatency", "key-int-max=60", "bitrate=\(bitRate)", "!",
                         "video/x-h264,profile=high", "!", "h264parse", "!", "mp4mux", "fragment-duration=1000", "!",
                         "filesink", "location=\(folder)/gst.mp4"]
        let ours = try ResourceBenchmarks.usage(StartUpBenchmark.camctl, ["record", "--device", "test", "--resolution", "1920x1080@30",
                                                                          "--duration", "\(seconds)", "--library", folder + "/library"],
                                                folder: folder)
        let theirs = try ResourceBenchmarks.usage("/usr/bin/gst-launch-1.0", reference, folder: folder)
        // A recording that takes no photos holds no frame for them, as gst-launch's holds none.
        let oursWithoutPhotos = try ResourceBenchmarks.usage(StartUpBenchmark.camctl, ["record", "--device", "test", "--resolution", "1920x1080@30",
                                                                                       "--duration", "\(seconds)", "--no-photos",
                                                                                       "--library", folder + "/library"], folder: folder)
        let kept = try frames(ofNewestMovieIn: folder + "/library"), theirsKept = try MovieFile(path: folder + "/gst.mp4").frameCount
        let name = "recording 1920x1080@30 H.264 for \(seconds) s (camctl record; gst-launch: videotestsrc horizontal-speed=4 ! x264enc, the same settings ! mp4mux fragmented ! filesink)"
        // With sound: camctl's test tone against audiotestsrc in gst-launch, both AAC at 128 kbit/s
        // from 48 kHz stereo, ten-millisecond buffers.
        let sounding = reference.flatMap { $0 == "mp4mux" ? ["mp4mux", "name=mux"] : [$0] }
            + ["audiotestsrc", "is-live=true", "wave=sine", "freq=440", "volume=0.2", "samplesperbuffer=480", "num-buffers=\(seconds * 100)", "!",
               "audio/x-raw,rate=48000,channels=2", "!", "voaacenc", "bitrate=128000", "!", "aacparse", "!", "mux."]
        let oursSounding = try ResourceBenchmarks.usage(StartUpBenchmark.camctl, ["record", "--device", "test", "--resolution", "1920x1080@30",
                                                                                  "--duration", "\(seconds)", "--audio", "test",
                                                                                  "--library", folder + "/library"], folder: folder)
        let theirsSounding = try ResourceBenchmarks.usage("/usr/bin/gst-launch-1.0", sounding, folder: folder)
        let soundName = "recording 1920x1080@30 H.264 with AAC sound for \(seconds) s (camctl record --audio test; gst-launch: the same, with audiotestsrc ! voaacenc)"
        var stops: [Double] = [], referenceStops: [Double] = []
        for _ in 0..<max(3, runs) {
            stops.append(try stopToFile(StartUpBenchmark.camctl, ["record", "--device", "test", "--resolution", "1920x1080@30", "--json",
                                                                  "--library", folder + "/library"], signal: SIGUSR2))
            referenceStops.append(try stopToFile("/usr/bin/gst-launch-1.0", reference.map { $0.hasPrefix("num-buffers") ? "num-buffers=-1" : $0 },
                                                 signal: SIGINT))
        }
        return [
            BenchmarkRow(name: "CPU time, " + name, unit: "CPU s", camctl: Measurement(samples: [ours.cpuSeconds]),
                         reference: Measurement(samples: [theirs.cpuSeconds]), referenceName: "gst-launch-1.0").goal(ratioAtMost: 1.1),
            BenchmarkRow(name: "Peak memory, " + name, unit: "MiB", camctl: Measurement(samples: [ours.peakKiB / 1024]),
                         reference: Measurement(samples: [theirs.peakKiB / 1024]), referenceName: "gst-launch-1.0").goal(ratioAtMost: 1.3),
            BenchmarkRow(name: "Peak memory, " + name.replacingOccurrences(of: "(camctl record;", with: "(camctl record --no-photos;"),
                         unit: "MiB", camctl: Measurement(samples: [oursWithoutPhotos.peakKiB / 1024]),
                         reference: Measurement(samples: [theirs.peakKiB / 1024]), referenceName: "gst-launch-1.0").goal(ratioAtMost: 1.3),
            BenchmarkRow(name: "Frames in the movie of \(seconds * 30) the camera made, " + name, unit: "frames",
                         camctl: Measurement(samples: [Double(kept)]), reference: Measurement(samples: [Double(theirsKept)]),
                         referenceName: "gst-launch-1.0").goal(ratioAtLeast: 1),
            BenchmarkRow(name: "CPU time, " + soundName, unit: "CPU s", camctl: Measurement(samples: [oursSounding.cpuSeconds]),
                         reference: Measurement(samples: [theirsSounding.cpuSeconds]), referenceName: "gst-launch-1.0").goal(ratioAtMost: 1.1),
            BenchmarkRow(name: "Peak memory, " + soundName, unit: "MiB", camctl: Measurement(samples: [oursSounding.peakKiB / 1024]),
                         reference: Measurement(samples: [theirsSounding.peakKiB / 1024]), referenceName: "gst-launch-1.0").goal(ratioAtMost: 1.3),
            BenchmarkRow(name: "Stop to finished movie and exit, 1920x1080@30 after 3.5 s (camctl record: SIGUSR2, the movie kept in the library)",
                         unit: "ms", camctl: Measurement(samples: stops.map { $0 * 1000 }),
                         reference: Measurement(samples: referenceStops.map { $0 * 1000 }),
                         referenceName: "gst-launch-1.0 -e, SIGINT"),
        ]
    }

    /// The frames of the movie last added to the library in `folder`.
    private func frames(ofNewestMovieIn folder: String) throws -> Int {
        let movies = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".mp4") }.sorted()
        guard let newest = movies.last else { throw BenchmarkFailure("camctl record left no movie in \(folder)") }
        return try MovieFile(path: folder + "/" + newest).frameCount
    }

    /// Starts a recording, stops it with `signal` three and a half seconds after it started, and
    /// returns the seconds from the signal to its exit, the movie finished. The child's signals
    /// are at their defaults (a shell's background job would have it ignore SIGINT).
    private func stopToFile(_ program: String, _ arguments: [String], signal: Int32) throws -> Double {
        let child = try ChildProcess.start(program, arguments, environment: ProcessInfo.processInfo.environment.map { "\($0)=\($1)" },
                                           output: .captured, quiet: true)
        Thread.sleep(forTimeInterval: 3.5)
        let stopped = ContinuousClock.now
        child.signal(signal)
        let output = child.readOutput()
        let ending = child.waitBlocking()
        let elapsed = (ContinuousClock.now - stopped).seconds
        guard ending == .exited(0) || ending == .exited(130) else {
            throw BenchmarkFailure("\(program) ended with \(ending) when stopped")
        }
        if program == StartUpBenchmark.camctl, !String(decoding: output, as: UTF8.self).contains("\"kind\":\"movie\"") {
            throw BenchmarkFailure("camctl record ended without printing its movie")
        }
        return elapsed
    }
}
