import Foundation

/// Resident memory over a long 1920x1080@30 preview with a photo every few seconds (`camctl preview`
/// and SIGUSR1), against gst-launch-1.0 running the same preview branches at the same time. Both are
/// sampled from /proc; growth is counted from the first minute, once caches and pools are warm.
struct SoakBenchmark {
    let folder: String
    let minutes: Int
    let photoInterval = 10
    let sampleInterval = 5

    func run() throws -> BenchmarkRow {
        let seconds = minutes * 60
        let library = folder + "/soak-library"
        let camctl = try start(StartUpBenchmark.camctl, [
            "preview", "--device", "test", "--resolution", "1920x1080@30", "--sink", "fakesink",
            "--duration", "\(seconds + 30)", "--library", library])
        let reference = try start("/usr/bin/gst-launch-1.0", [
            "-q", "videotestsrc", "is-live=true", "!", "video/x-raw,format=I420,width=1920,height=1080,framerate=30/1",
            "!", "tee", "name=t", "t.", "!", "queue", "!", "fakesink", "sync=false",
            "t.", "!", "queue", "!", "videoscale", "!", "videoconvert", "!", "video/x-raw,width=1280,height=720", "!", "fakesink"])
        defer {
            for process in [camctl, reference] where process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        var ours: [Double] = [], theirs: [Double] = []
        let start = ContinuousClock.now
        for second in 1...seconds {
            Thread.sleep(until: Date(timeIntervalSinceNow: ((start + .seconds(second)) - ContinuousClock.now).seconds))
            guard camctl.isRunning, reference.isRunning else { throw BenchmarkFailure("a soak process ended early") }
            if second % photoInterval == 0 { kill(camctl.processIdentifier, SIGUSR1) }
            if second % sampleInterval == 0 {
                ours.append(try residentMiB(of: camctl))
                theirs.append(try residentMiB(of: reference))
            }
        }
        let photos = (try? FileManager.default.contentsOfDirectory(atPath: library))?.filter { $0.hasSuffix(".jpg") }.count ?? 0
        let warm = 60 / sampleInterval - 1  // the sample at one minute
        func summary(_ samples: [Double]) -> String {
            String(format: "after 1 min %.1f MiB, growth since %+.1f MiB", samples[warm], samples.last! - samples[warm])
        }
        let growth = ours.last! - ours[warm]
        return BenchmarkRow(
            name: "Resident memory after a \(minutes)-minute 1920x1080@30 preview with a photo every \(photoInterval) s "
                + "(\(photos) photos; camctl \(summary(ours)); gst-launch \(summary(theirs)))",
            unit: "MiB", camctl: Measurement(samples: [ours.last!]), reference: Measurement(samples: [theirs.last!]),
            referenceName: "gst-launch-1.0, the same preview branches, no photos")
            .goal("growth ≤ 1 MiB", met: growth <= 1)
    }

    private func start(_ program: String, _ arguments: [String]) throws -> Process {
        let process = quietProcess(program, arguments)
        try process.run()
        return process
    }

    /// The process's resident memory (VmRSS) in MiB.
    private func residentMiB(of process: Process) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Double(line.split(whereSeparator: \.isWhitespace)[1]) else {
            throw BenchmarkFailure("no VmRSS for process \(process.processIdentifier)")
        }
        return kib / 1024
    }
}
