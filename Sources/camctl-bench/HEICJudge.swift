import Foundation

/// How close a HEIC's picture is to the camera's frame it was made from, as tools camctl did not
/// write measure it: GStreamer's jpegdec gives the frame (a camera's JPEG decoded to YCbCr 4:2:0,
/// what camctl's session holds), libheif's heif-convert decodes the HEIC to YCbCr without a
/// colour conversion, and ffmpeg's psnr and ssim filters compare the planes. Both encoders are
/// given the same frame (heif-enc reads it as Y4M), so neither is judged through a conversion
/// to RGB and back, which would measure the converters as much as the encoders.
enum HEICJudge {
    /// A natural picture from Debian's mate-backgrounds, cut to `width`x`height` and written as a
    /// camera's JPEG (libjpeg quality 92, 4:2:0) at `jpeg`; returns the frame as Y4M beside it.
    static func cameraFrame(from picture: String, width: Int, height: Int, jpeg: String) throws -> String {
        guard FileManager.default.fileExists(atPath: picture) else {
            throw BenchmarkFailure("the HEIC rows need \(picture) (Debian's mate-backgrounds); scripts/setup --tests installs it")
        }
        let pixels = jpeg + ".ppm"
        _ = try timeProcess("/usr/bin/ffmpeg", ["-loglevel", "error", "-y", "-i", picture, "-vf",
                                                "scale=\(width):\(height):force_original_aspect_ratio=increase,crop=\(width):\(height)",
                                                "-pix_fmt", "rgb24", pixels])
        try shell("/usr/bin/cjpeg -quality 92 '\(pixels)' > '\(jpeg)'")
        let frame = jpeg + ".y4m"
        _ = try timeProcess("/usr/bin/gst-launch-1.0", ["-q", "filesrc", "location=\(jpeg)", "!", "jpegdec", "!", "y4menc", "!",
                                                        "filesink", "location=\(frame)"])
        return frame
    }

    /// The luma PSNR and SSIM of a HEIC against the frame (Y4M).
    static func luma(of heic: String, against frame: String) throws -> (psnr: Double, ssim: Double) {
        let decoded = heic + ".y4m"
        _ = try timeProcess("/usr/bin/heif-convert", ["--quiet", heic, decoded])
        let psnr = try compare(decoded, frame, filter: "psnr", field: #"y:([0-9.]+|inf)"#)
        let ssim = try compare(decoded, frame, filter: "ssim", field: #"Y:([0-9.]+)"#)
        return (psnr, ssim)
    }

    /// What ffmpeg's `filter` says of two Y4M pictures: the first capture of `field` on its summary line.
    private static func compare(_ first: String, _ second: String, filter: String, field: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostats", "-i", first, "-i", second, "-lavfi", "[0:v][1:v]\(filter)", "-f", "null", "-"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let summary = text.split(separator: "\n").last { $0.contains("Parsed_\(filter)") } ?? ""
        guard let match = summary.firstMatch(of: try Regex(field)), let text = match.output[1].substring,
              let value = text == "inf" ? 99 : Double(text) else {
            throw BenchmarkFailure("ffmpeg's \(filter) measured nothing for \(first)")
        }
        return value
    }

    /// A file's size in bytes.
    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// heif-enc's file as close to a frame as one of camctl's.
    struct Match {
        let quality: Int
        let psnr: Double
        let ssim: Double
        let bytes: Int

        var description: String {
            "heif-enc -q \(quality)" + HEICJudge.described(psnr: psnr, ssim: ssim)
        }
    }

    /// How close camctl's HEIC is to the frame, in words for a row's name, and heif-enc's file at
    /// the lowest quality as close.
    static func judged(_ heic: String, frame: String, folder: String) throws -> (ours: String, theirs: Match) {
        let ours = try luma(of: heic, against: frame)
        guard let theirs = try heifEncMatching(ours.psnr, frame: frame, output: folder + "/heif-enc.heic") else {
            throw BenchmarkFailure("heif-enc reached no quality as close as camctl's \(ours.psnr) dB")
        }
        return (described(psnr: ours.psnr, ssim: ours.ssim), theirs)
    }

    static func described(psnr: Double, ssim: Double) -> String {
        String(format: " (luma PSNR %.2f dB, SSIM %.4f)", psnr, ssim)
    }

    /// The lowest quality of `heif-enc` on the frame (with a thumbnail of at most 320 pixels, as
    /// camctl's photos have) whose luma is at least `psnr` close to it; `nil` when none is.
    static func heifEncMatching(_ psnr: Double, frame: String, output: String) throws -> Match? {
        var matched: Match?
        var (low, high) = (1, 100)
        // Binary search: PSNR grows with heif-enc's quality.
        while low <= high {
            let quality = (low + high) / 2
            _ = try timeProcess("/usr/bin/heif-enc", heifEncArguments(quality: quality, frame: frame, output: output))
            let reached = try luma(of: output, against: frame)
            if reached.psnr >= psnr {
                matched = Match(quality: quality, psnr: reached.psnr, ssim: reached.ssim, bytes: try size(output))
                high = quality - 1
            } else {
                low = quality + 1
            }
        }
        return matched
    }

    /// heif-enc's arguments for the frame at `quality`, with a thumbnail as camctl's photos have.
    static func heifEncArguments(quality: Int, frame: String, output: String) -> [String] {
        ["-q", "\(quality)", "-t", "320", frame, "-o", output]
    }

    private static func shell(_ command: String) throws {
        _ = try timeProcess("/bin/sh", ["-c", command])
    }
}
