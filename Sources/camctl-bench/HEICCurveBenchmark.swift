import Foundation

/// HEIC size against picture quality: camctl's HEICs finished after the shot (x265's slow preset)
/// at five qualities and three sizes, each against libheif's `heif-enc` on the same camera frame
/// at the lowest quality whose luma is as close to it (``HEICJudge``).
struct HEICCurveBenchmark {
    let folder: String
    static let qualities = [50, 75, 90, 95, 100]
    /// The pictures, from Debian's mate-backgrounds: a painting photographed in detail, a macro
    /// photograph with a soft background, and wood grain.
    static let pictures = [
        (width: 4032, height: 3024, name: "painting", path: "/usr/share/backgrounds/mate/abstract/Elephants_5640x3172.jpg"),
        (width: 1920, height: 1080, name: "ladybird", path: "/usr/share/backgrounds/mate/nature/LadyBird.jpg"),
        (width: 1280, height: 720, name: "wood", path: "/usr/share/backgrounds/mate/nature/Wood.jpg"),
    ]

    func run() throws -> [BenchmarkRow] {
        var rows: [BenchmarkRow] = []
        for picture in Self.pictures {
            let jpeg = folder + "/\(picture.name).jpg"
            let frame = try HEICJudge.cameraFrame(from: picture.path, width: picture.width, height: picture.height, jpeg: jpeg)
            for quality in Self.qualities {
                let library = folder + "/library-\(picture.name)-\(quality)"
                _ = try timeProcess(StartUpBenchmark.camctl, ["capture", "--device", "file:\(jpeg)", "--resolution", "photo", "--hevc",
                                                              "--quality", "\(quality)", "--library", library])
                guard let ours = try FileManager.default.contentsOfDirectory(atPath: library).first(where: { $0.hasSuffix(".heic") }) else {
                    throw BenchmarkFailure("camctl left no HEIC in \(library)")
                }
                let path = library + "/" + ours, judged = try HEICJudge.judged(path, frame: frame, folder: folder)
                rows.append(BenchmarkRow(name: "HEIC size, \(picture.width)x\(picture.height) \(picture.name) finished after the shot, "
                                         + "camctl quality \(quality)" + judged.ours, unit: "KiB",
                                         camctl: Measurement(samples: [Double(try HEICJudge.size(path)) / 1024]),
                                         reference: Measurement(samples: [Double(judged.theirs.bytes) / 1024]),
                                         referenceName: judged.theirs.description).goal(ratioAtMost: 1))
            }
        }
        return rows
    }
}
