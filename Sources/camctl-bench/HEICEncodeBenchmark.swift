import Foundation

/// One 12 MP HEIC from a camera's frame (a JPEG used as a camera), against libheif's `heif-enc`
/// on the same frame at the lowest quality whose luma is as close to it (``HEICJudge``): the time
/// to the file and its size, encoded at once (`--now`, x265's ultrafast preset, as bursts need)
/// and finished after the shot (x265's slow preset, the default into a library).
struct HEICEncodeBenchmark {
    let folder: String

    func run(runs: Int) throws -> [BenchmarkRow] {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            throw BenchmarkFailure("the HEIC rows need heif-enc (libheif-examples) and ffmpeg; scripts/setup --tests installs them")
        }
        let picture = HEICCurveBenchmark.pictures[0], jpeg = folder + "/frame.jpg"
        let frame = try HEICJudge.cameraFrame(from: picture.path, width: picture.width, height: picture.height, jpeg: jpeg)
        let now = folder + "/camctl.heic"
        let capture = ["capture", "--device", "file:\(jpeg)", "--resolution", "photo", "--hevc", "--now", "--no-library", "--output", now]
        var nowTimes: [Double] = []
        for _ in 0..<runs { nowTimes.append(try timeProcess(StartUpBenchmark.camctl, capture) * 1000) }
        // The command ends once the HEIC is in the library, so its time is the time until the final file exists.
        var finalTimes: [Double] = [], final = ""
        for run in 0..<runs {
            let library = folder + "/library-\(run)"
            finalTimes.append(try timeProcess(StartUpBenchmark.camctl, ["capture", "--device", "file:\(jpeg)", "--resolution", "photo",
                                                                         "--hevc", "--library", library]) * 1000)
            final = try FileManager.default.contentsOfDirectory(atPath: library).first { $0.hasSuffix(".heic") }.map { library + "/" + $0 } ?? ""
        }
        let size = "\(picture.width)x\(picture.height) \(picture.name)"
        return try compare(now, times: nowTimes, as: "HEIC at once (--now, x265 ultrafast) of a \(size) camera frame, camctl quality 90",
                           frame: frame, runs: runs, timeName: "whole process, JPEG in, HEIC out")
            + compare(final, times: finalTimes, as: "HEIC finished after the shot (x265 slow) of a \(size) camera frame, camctl quality 90",
                      frame: frame, runs: runs, timeName: "capture to final file in the library")
    }

    /// Rows for one of camctl's HEICs against heif-enc at the lowest quality as close to the frame.
    private func compare(_ ours: String, times: [Double], as label: String, frame: String, runs: Int, timeName: String) throws -> [BenchmarkRow] {
        let output = folder + "/heif-enc.heic"
        let judged = try HEICJudge.judged(ours, frame: frame, folder: folder)
        var theirTimes: [Double] = []
        for _ in 0..<runs {
            theirTimes.append(try timeProcess("/usr/bin/heif-enc", HEICJudge.heifEncArguments(quality: judged.theirs.quality, frame: frame,
                                                                                              output: output)) * 1000)
        }
        let name = label + judged.ours
        return [
            BenchmarkRow(name: name + ": " + timeName, unit: "ms", camctl: Measurement(samples: times),
                         reference: Measurement(samples: theirTimes), referenceName: judged.theirs.description).goal(ratioAtMost: 1),
            BenchmarkRow(name: name + ": file size", unit: "KiB", camctl: Measurement(samples: [Double(try HEICJudge.size(ours)) / 1024]),
                         reference: Measurement(samples: [Double(judged.theirs.bytes) / 1024]),
                         referenceName: judged.theirs.description).goal(ratioAtMost: 1),
        ]
    }
}
