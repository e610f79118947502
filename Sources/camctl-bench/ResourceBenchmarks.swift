import Foundation

/// Peak memory and CPU time of whole processes, measured by GNU time (`%M`, `%U`, `%S`): camctl
/// against gst-launch-1.0 doing the same work.
struct ResourceBenchmarks {
    let folder: String
    /// How long the preview runs.
    let seconds: Int

    struct Usage {
        let peakKiB: Double
        let cpuSeconds: Double
    }

    func run() throws -> [BenchmarkRow] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw BenchmarkFailure("the memory and CPU rows need GNU time (/usr/bin/time); scripts/setup --tests installs it")
        }
        // A 1080p30 preview with the still branch kept, as camctl preview runs it.
        let preview = try usage(StartUpBenchmark.camctl, ["preview", "--device", "test", "--resolution", "1920x1080@30",
                                                          "--sink", "fakesink", "--duration", "\(seconds)", "--no-library",
                                                          "--output", folder + "/unused-%d.jpg"])
        let previewReference = try usage("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "is-live=true", "num-buffers=\(seconds * 30)",
                                                                     "!", "video/x-raw,format=I420,width=1920,height=1080,framerate=30/1",
                                                                     "!", "tee", "name=t", "t.", "!", "queue", "!", "fakesink", "sync=false",
                                                                     "t.", "!", "queue", "!", "videoscale", "!", "videoconvert", "!",
                                                                     "video/x-raw,width=1280,height=720", "!", "fakesink"])
        // The same preview taking no photos: no full-size frame held, against gst-launch's preview branch alone.
        let bare = try usage(StartUpBenchmark.camctl, ["preview", "--device", "test", "--resolution", "1920x1080@30", "--sink", "fakesink",
                                                       "--duration", "\(seconds)", "--no-library", "--output", folder + "/unused-%d.jpg",
                                                       "--no-photos"])
        let bareReference = try usage("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "is-live=true", "num-buffers=\(seconds * 30)",
                                                                  "!", "video/x-raw,format=I420,width=1920,height=1080,framerate=30/1",
                                                                  "!", "videoscale", "!", "videoconvert", "!", "video/x-raw,width=1280,height=720",
                                                                  "!", "fakesink"])
        // A burst of 100 photos into the library, from a description file.
        let script = folder + "/burst.camctl"
        try Data("camera test\nresolution 1920x1080@60\nburst 100\n".utf8).write(to: URL(fileURLWithPath: script))
        let burst = try usage(StartUpBenchmark.camctl, ["run", script, "--library", folder + "/library"])
        let burstReference = try usage("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=100", "!",
                                                                   "video/x-raw,format=I420,width=1920,height=1080", "!", "jpegenc",
                                                                   "!", "multifilesink", "location=\(folder)/gst-%03d.jpg"])
        let bursts = try burstLengths()
        let oneShots = try oneShotRows()
        let perMinute = 60 / Double(seconds)
        let previewName = "1920x1080@30 preview for \(seconds) s (camctl preview, fakesink; gst-launch: tee to the same two branches)"
        return [
            BenchmarkRow(name: "Peak memory, " + previewName, unit: "MiB",
                         camctl: Measurement(samples: [preview.peakKiB / 1024]),
                         reference: Measurement(samples: [previewReference.peakKiB / 1024]),
                         referenceName: "gst-launch-1.0").goal(ratioAtMost: 1.3),
            BenchmarkRow(name: "CPU time per minute, " + previewName, unit: "CPU s",
                         camctl: Measurement(samples: [preview.cpuSeconds * perMinute]),
                         reference: Measurement(samples: [previewReference.cpuSeconds * perMinute]),
                         referenceName: "gst-launch-1.0"),
            BenchmarkRow(name: "Peak memory, 1920x1080@30 preview for \(seconds) s taking no photos (camctl preview --no-photos, fakesink; gst-launch: the preview's branch alone)",
                         unit: "MiB", camctl: Measurement(samples: [bare.peakKiB / 1024]),
                         reference: Measurement(samples: [bareReference.peakKiB / 1024]),
                         referenceName: "gst-launch-1.0").goal(ratioAtMost: 1.3),
            BenchmarkRow(name: "Peak memory, a burst of 100 1920x1080 JPEG photos into the library (camctl run: burst 100)", unit: "MiB",
                         camctl: Measurement(samples: [burst.peakKiB / 1024]),
                         reference: Measurement(samples: [burstReference.peakKiB / 1024]),
                         referenceName: "gst-launch-1.0 videotestsrc num-buffers=100 ! jpegenc ! multifilesink").goal(ratioAtMost: 1.3),
        ] + oneShots + bursts
    }

    /// Peak memory of one photo (`camctl capture --no-library --output F`) against gst-launch
    /// making the same JPEG, at 1280x720, 1920x1080 and 4032x3024.
    private func oneShotRows() throws -> [BenchmarkRow] {
        try [(1280, 720), (1920, 1080), (4032, 3024)].map { width, height in
            let ours = try usage(StartUpBenchmark.camctl, ["capture", "--device", "test", "--resolution", "\(width)x\(height)",
                                                            "--no-library", "--output", folder + "/one-shot.jpg"])
            let theirs = try usage("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=\(width),height=\(height)",
                                                                "!", "jpegenc", "!", "filesink", "location=\(folder)/gst-one-shot.jpg"])
            return BenchmarkRow(name: "Peak memory, one \(width)x\(height) photo (camctl capture --no-library --output F)", unit: "MiB",
                                camctl: Measurement(samples: [ours.peakKiB / 1024]), reference: Measurement(samples: [theirs.peakKiB / 1024]),
                                referenceName: "gst-launch-1.0 videotestsrc num-buffers=1 ! jpegenc ! filesink").goal(ratioAtMost: 1.3)
        }
    }

    /// Peak memory of long bursts against a burst of 10 at the same rate: a 1080p camera at
    /// 240 fps (faster than the encoder, so frames are let pass) and at 30 fps.
    private func burstLengths() throws -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        for (rate, lengths) in [(240, [100, 1000, 5000]), (30, [100, 1000])] {
            func peak(_ photos: Int) throws -> Double {
                let script = folder + "/burst-\(rate)-\(photos).camctl"
                try Data("camera test\nresolution 1920x1080@\(rate)\nburst \(photos)\n".utf8).write(to: URL(fileURLWithPath: script))
                defer { try? FileManager.default.removeItem(atPath: folder + "/bursts") }
                return try usage(StartUpBenchmark.camctl, ["run", script, "--library", folder + "/bursts"]).peakKiB / 1024
            }
            let ten = Measurement(samples: [try peak(10)])
            for photos in lengths {
                rows.append(BenchmarkRow(name: "Peak memory, a burst of \(photos) 1920x1080 photos into the library, camera at \(rate) fps (camctl run: burst \(photos))",
                                         unit: "MiB", camctl: Measurement(samples: [try peak(photos)]), reference: ten,
                                         referenceName: "the same, a burst of 10").goal(ratioAtMost: 1.3))
            }
        }
        return rows
    }

    /// Runs a program under GNU time and reads its peak resident memory and CPU seconds.
    private func usage(_ program: String, _ arguments: [String]) throws -> Usage {
        try Self.usage(program, arguments, folder: folder)
    }

    /// Runs a program under GNU time, its report written in `folder`, and reads its peak resident
    /// memory and CPU seconds.
    static func usage(_ program: String, _ arguments: [String], folder: String) throws -> Usage {
        let report = folder + "/usage.txt"
        _ = try timeProcess("/usr/bin/time", ["-o", report, "-f", "%M %U %S", program] + arguments)
        let fields = try String(contentsOfFile: report, encoding: .utf8).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        guard fields.count == 3 else { throw BenchmarkFailure("GNU time reported nothing for \(program)") }
        return Usage(peakKiB: fields[0], cpuSeconds: fields[1] + fields[2])
    }
}
