import Foundation

/// How close a HEIC's picture is to its source, as tools camctl did not write measure it:
/// libheif's heif-convert decodes it, ffmpeg's psnr filter compares the luma.
enum HEICJudge {
    /// The luma PSNR of a HEIC against the source picture.
    static func lumaPSNR(of heic: String, against source: String) throws -> Double {
        let decoded = heic + ".png"
        _ = try timeProcess("/usr/bin/heif-convert", ["--quiet", heic, decoded])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostats", "-i", source, "-i", decoded, "-lavfi", "[0:v]format=gray[a];[1:v]format=gray[b];[a][b]psnr",
                             "-f", "null", "-"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let range = text.range(of: #"average:[0-9.]+"#, options: .regularExpression),
              let value = Double(text[range].dropFirst("average:".count)) else {
            throw BenchmarkFailure("ffmpeg measured no PSNR for \(heic)")
        }
        return value
    }

    /// A file's size in bytes.
    static func size(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// The lowest quality of a `heif-enc` run on `input` (`arguments` before `-q`) whose picture is
    /// at least `psnr` close to `source`, with that PSNR and the file's size; `nil` when none is.
    static func heifEncMatching(_ psnr: Double, source: String, input: String? = nil, arguments: [String] = [],
                                output: String) throws -> (quality: Int, psnr: Double, bytes: Int)? {
        var matched: (quality: Int, psnr: Double, bytes: Int)?
        var (low, high) = (1, 100)
        // Binary search: PSNR grows with heif-enc's quality.
        while low <= high {
            let quality = (low + high) / 2
            _ = try timeProcess("/usr/bin/heif-enc", arguments + ["-q", "\(quality)", input ?? source, "-o", output])
            let reached = try lumaPSNR(of: output, against: source)
            if reached >= psnr {
                matched = (quality, reached, try size(output))
                high = quality - 1
            } else {
                low = quality + 1
            }
        }
        return matched
    }
}
