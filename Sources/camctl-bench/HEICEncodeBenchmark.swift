import Foundation

/// One 4032x3024 HEIC, from a lossless picture used as a camera, against libheif's `heif-enc` on
/// the same picture at the lowest quality that matches camctl's luma PSNR (both judged by
/// ffmpeg's psnr filter after libheif's heif-convert decodes them): encode time and file size.
struct HEICEncodeBenchmark {
    let folder: String

    func run(runs: Int) throws -> [BenchmarkRow] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            throw BenchmarkFailure("the HEIC rows need heif-enc (libheif-examples) and ffmpeg; scripts/setup --tests installs them")
        }
        let source = folder + "/source.png"
        // The picture a camera could have taken: GStreamer's colour pattern as limited-range 4:2:0
        // frames, the format camctl's photos are encoded from, written back to RGB. A picture with
        // more precision than any camera frame would cap camctl's PSNR near 50 dB, however many
        // bits it spent, while heif-enc reads the RGB whole.
        _ = try timeProcess("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=colors", "!",
                                                        "video/x-raw,width=4032,height=3024,format=I420", "!",
                                                        "videoconvert", "!", "video/x-raw,format=RGB", "!", "pngenc", "!",
                                                        "filesink", "location=\(source)"])
        // At once (--now): x265's ultrafast preset, the session's encoders.
        let now = folder + "/camctl.heic"
        let capture = ["capture", "--device", "file:\(source)", "--resolution", "photo", "--hevc", "--now", "--no-library", "--output", now]
        var nowTimes: [Double] = []
        for _ in 0..<runs { nowTimes.append(try timeProcess(StartUpBenchmark.camctl, capture) * 1000) }
        // Finished after the shot (the default into the library): x265's slow preset. The command
        // ends once the HEIC is in the library, so its time is the time until the final file exists.
        var finalTimes: [Double] = [], final = ""
        for run in 0..<runs {
            let library = folder + "/library-\(run)"
            finalTimes.append(try timeProcess(StartUpBenchmark.camctl, ["capture", "--device", "file:\(source)", "--resolution", "photo",
                                                                         "--hevc", "--library", library]) * 1000)
            final = try FileManager.default.contentsOfDirectory(atPath: library).first { $0.hasSuffix(".heic") }.map { library + "/" + $0 } ?? ""
        }
        return try compare(now, times: nowTimes, as: "HEIC at once (--now, x265 ultrafast) of a 4032x3024 picture, camctl quality 90", source: source, runs: runs)
            + compare(final, times: finalTimes, as: "HEIC finished after the shot (x265 slow) of a 4032x3024 picture, camctl quality 90",
                      source: source, runs: runs, timeName: "capture to final file in the library")
    }

    /// Rows for one of camctl's HEICs against heif-enc at the lowest quality as close to the source.
    private func compare(_ ours: String, times: [Double], as label: String, source: String, runs: Int,
                         timeName: String = "whole process, PNG in, HEIC out") throws -> [BenchmarkRow] {
        let ourPSNR = try HEICJudge.lumaPSNR(of: ours, against: source)
        // The lowest heif-enc quality whose picture is at least as close to the source.
        guard let matched = try HEICJudge.heifEncMatching(ourPSNR, source: source, output: folder + "/heif-enc.heic") else {
            throw BenchmarkFailure("heif-enc reached no quality as close as camctl's \(ourPSNR) dB")
        }
        var theirTimes: [Double] = []
        for _ in 0..<runs {
            theirTimes.append(try timeProcess("/usr/bin/heif-enc", ["-q", "\(matched.quality)", source, "-o", folder + "/heif-enc.heic"]) * 1000)
        }
        let ourSize = Double(try HEICJudge.size(ours)) / 1024, theirSize = Double(try HEICJudge.size(folder + "/heif-enc.heic")) / 1024
        let reference = "heif-enc -q \(matched.quality) (luma PSNR \(String(format: "%.1f", matched.psnr)) dB)"
        let name = label + " (luma PSNR \(String(format: "%.1f", ourPSNR)) dB)"
        return [
            BenchmarkRow(name: name + ": " + timeName, unit: "ms", camctl: Measurement(samples: times),
                         reference: Measurement(samples: theirTimes), referenceName: reference).goal(ratioAtMost: 1),
            BenchmarkRow(name: name + ": file size", unit: "KiB", camctl: Measurement(samples: [ourSize]),
                         reference: Measurement(samples: [theirSize]), referenceName: reference).goal(ratioAtMost: 1),
        ]
    }
}
