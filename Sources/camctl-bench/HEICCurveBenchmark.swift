import Foundation

/// HEIC size against picture quality: camctl's HEICs finished after the shot (x265's slow preset)
/// at several qualities, each against libheif's `heif-enc` at the lowest quality as close to the
/// source (luma PSNR), two ways: full-range 8-bit YCbCr (heif-enc's own, from the RGB it is
/// given; its `--full_range_flag` changes only the flag it writes) and 10-bit, from a 16-bit copy
/// of the picture. At 1920x1080, so the curve takes a minute.
struct HEICCurveBenchmark {
    let folder: String
    let qualities = [75, 90, 95]

    func run() throws -> [BenchmarkRow] {
        let source = folder + "/source.png", deep = folder + "/source-16bit.png"
        // As in the 12 MP rows: the colour pattern as a camera's limited-range 4:2:0 frame, back to RGB.
        _ = try timeProcess("/usr/bin/gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=colors", "!",
                                                        "video/x-raw,width=1920,height=1080,format=I420", "!",
                                                        "videoconvert", "!", "video/x-raw,format=RGB", "!", "pngenc", "!",
                                                        "filesink", "location=\(source)"])
        _ = try timeProcess("/usr/bin/convert", [source, "-depth", "16", "PNG48:" + deep])
        var rows: [BenchmarkRow] = []
        for quality in qualities {
            let library = folder + "/library-\(quality)"
            _ = try timeProcess(StartUpBenchmark.camctl, ["capture", "--device", "file:\(source)", "--resolution", "photo", "--hevc",
                                                          "--quality", "\(quality)", "--library", library])
            guard let ours = try FileManager.default.contentsOfDirectory(atPath: library).first(where: { $0.hasSuffix(".heic") }) else {
                throw BenchmarkFailure("camctl left no HEIC in \(library)")
            }
            let path = library + "/" + ours, psnr = try HEICJudge.lumaPSNR(of: path, against: source)
            let size = Double(try HEICJudge.size(path)) / 1024
            let ways: [(name: String, input: String, arguments: [String])] = [
                ("8-bit", source, []), ("10-bit", deep, ["-b", "10"]),
            ]
            for way in ways {
                guard let matched = try HEICJudge.heifEncMatching(psnr, source: source, input: way.input, arguments: way.arguments,
                                                                  output: folder + "/heif-enc.heic") else {
                    throw BenchmarkFailure("heif-enc (\(way.name)) reached no quality as close as camctl's \(psnr) dB")
                }
                rows.append(BenchmarkRow(
                    name: "HEIC size, 1920x1080 finished after the shot, camctl quality \(quality) (luma PSNR \(String(format: "%.1f", psnr)) dB)",
                    unit: "KiB", camctl: Measurement(samples: [size]), reference: Measurement(samples: [Double(matched.bytes) / 1024]),
                    referenceName: "heif-enc \(way.name) -q \(matched.quality) (luma PSNR \(String(format: "%.1f", matched.psnr)) dB)"))
            }
        }
        return rows
    }
}
