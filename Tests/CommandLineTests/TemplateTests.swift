import Foundation
import Glibc
import TestSupport
import Testing

/// Booth pictures composed by a template, judged against the same composition made by ImageMagick.
@Suite("Templates: booth --template", .startsPrograms)
struct TemplateTests {
    /// A 1200x1800 template: two slots turned 5 degrees clockwise and 4 counter-clockwise on cream,
    /// a frame with a transparent middle over them, and a caption at the foot.
    static let template = """
        {"width": 1200, "height": 1800, "background": "#fdf6e3",
         "slots": [{"x": 100, "y": 120, "width": 1000, "height": 562, "rotation": 5},
                   {"x": 100, "y": 800, "width": 1000, "height": 562, "rotation": -4}],
         "overlays": [{"picture": "art/frame.png"}],
         "texts": [{"text": "Anna & Ben", "x": 600, "y": 1600, "size": 96, "font": "DejaVu Sans", "color": "#5b4a1e"}]}
        """

    /// What ImageMagick makes of the template with `shot` in both slots: each shot cropped to its
    /// slot's shape and scaled to it, turned about its centre, then the frame over them. (No caption:
    /// its band is left out of the comparison, and read back instead.)
    static func reference(shot: String, frame: String, into path: String) async throws {
        var arguments = ["-size", "1200x1800", "xc:#fdf6e3"]
        for (x, y, rotation) in [(100, 120, 5.0), (100, 800, -4.0)] {
            let (centerX, centerY) = (Double(x) + 500, Double(y) + 281)
            arguments += ["(", shot, "-resize", "1000x562^", "-gravity", "center", "-extent", "1000x562", "-background", "none",
                          "-rotate", String(rotation), ")", "-gravity", "center",
                          "-geometry", String(format: "%+.0f%+.0f", centerX - 600, centerY - 900), "-composite"]
        }
        arguments += [frame, "-gravity", "northwest", "-geometry", "+0+0", "-composite", path]
        let made = try await ChildProcess.run("convert", arguments)
        #expect(made.status == 0, "\(made.standardError)")
    }

    /// The mean absolute difference of two RGB pictures' rows `rows`, out of 255.
    @_optimize(speed)  // millions of bytes, in a debug build
    static func meanDifference(_ a: [UInt8], _ b: [UInt8], width: Int, rows: Range<Int>) -> Double {
        let range = rows.lowerBound * width * 3..<min(rows.upperBound * width * 3, a.count, b.count)
        let sum = a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var sum = 0
                for index in range { sum += abs(Int(a[index]) - Int(b[index])) }
                return sum
            }
        }
        return Double(sum) / Double(max(1, range.count))
    }

    /// The bound on the mean difference outside the caption: what two JPEG encodings of the shot,
    /// two scalers and two ways of turning leave, mostly along the turned edges.
    static let meanDifferenceBound = 4.0

    @Test("Turned slots, a frame and a caption: the strip matches ImageMagick's composition, the caption reads back")
    func matchesReference() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("art"), withIntermediateDirectories: true)
        let frame = folder.path("art/frame.png")
        let framed = try await ChildProcess.run("convert", ["-size", "1200x1800", "xc:none", "-fill", "none", "-stroke", "#c9a227",
                                                            "-strokewidth", "40", "-draw", "rectangle 20,20 1180,1780", frame])
        #expect(framed.status == 0, "\(framed.standardError)")
        let templatePath = folder.path("party.json")
        try Self.template.write(toFile: templatePath, atomically: true, encoding: .utf8)
        let camera = folder.path("camera.png")
        try await Camctl.testPicture(camera, width: 1280, height: 720, pattern: "pinwheel")
        let camctl = try Camctl()
        let composed = folder.path("composed.jpg")
        let result = try await camctl("booth", "--device", "file:\(camera)", "--resolution", "1280x720", "--countdown", "0", "--show-shots", "0",
                                      "--show-result", "0", "--template", templatePath, "--sink", "fakesink", "--output", composed, "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let shots = Camctl.objects(result.standardOutput).compactMap { $0["path"] as? String }
        #expect(shots.count == 3, "two shots (as many as the template has slots) and the picture: \(result.standardOutput)")
        let reference = folder.path("reference.png")
        try await Self.reference(shot: try #require(shots.first), frame: frame, into: reference)
        let ours = try await GreenScreenTests.frame(of: composed, width: 1200, height: 1800)
        let theirs = try await GreenScreenTests.frame(of: reference, width: 1200, height: 1800)
        let above = Self.meanDifference(ours, theirs, width: 1200, rows: 0..<1500)
        let below = Self.meanDifference(ours, theirs, width: 1200, rows: 1700..<1800)
        #expect(above < Self.meanDifferenceBound && below < Self.meanDifferenceBound, "mean difference \(above) above the caption, \(below) below it")
        // Turned the wrong way, the same composition differs far more.
        let wrongWay = folder.path("wrong.png")
        let turned = try await ChildProcess.run("convert", [reference, "-flop", wrongWay])
        #expect(turned.status == 0)
        let flopped = Self.meanDifference(ours, try await GreenScreenTests.frame(of: wrongWay, width: 1200, height: 1800), width: 1200, rows: 0..<1500)
        #expect(flopped > 3 * Self.meanDifferenceBound, "a mirrored reference differs by \(flopped)")
        let band = folder.path("caption.png")
        #expect(try await ChildProcess.run("convert", [composed, "-crop", "1200x200+0+1500", band]).status == 0)
        #expect(try await WordsOnPictureTests.read(band) == "Anna & Ben")
    }

    @Test("A description file composes its shots by a template: the picture has the template's size")
    func describedTemplate() async throws {
        let folder = try TemporaryFolder()
        let template = folder.path("two.json")
        try """
            {"width": 800, "height": 1000, "background": "black",
             "slots": [{"x": 40, "y": 40, "width": 720, "height": 405}, {"x": 40, "y": 500, "width": 720, "height": 405, "rotation": 90, "fit": "contain"}]}
            """.write(toFile: template, atomically: true, encoding: .utf8)
        let file = folder.path("booth.camctl")
        try "camera test\nresolution 640x360\ncapture\ncapture\ncompose template \"\(template)\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let camctl = try Camctl()
        let result = try await camctl("run", file, "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let composed = try #require(Camctl.objects(result.standardOutput).last, "\(result.standardOutput)")
        #expect(composed["width"] as? Int == 800 && composed["height"] as? Int == 1000, "\(composed)")
        let missing = folder.path("missing.camctl")
        try "camera test\ncapture\ncompose template \"\(folder.path("none.json"))\"\n".write(toFile: missing, atomically: true, encoding: .utf8)
        let refused = try await camctl("run", missing)
        #expect(refused.status == 64 && refused.standardError.contains("none.json cannot be read"), "\(refused.status) \(refused.standardError)")
    }

    @Test("A template that is not JSON, misses a field, names a picture outside its folder or through a link is refused in one sentence")
    func hostileTemplates() async throws {
        let folder = try TemporaryFolder()
        let outside = try TemporaryFolder()
        try await Camctl.testPicture(outside.path("secret.png"), width: 64, height: 64)
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.png"), withDestinationPath: outside.path("secret.png"))
        let camctl = try Camctl()
        let slot = #"{"x": 0, "y": 0, "width": 64, "height": 64}"#
        for (name, text, status, words) in [
            ("garbage.json", "not json", 65, "it is not valid JSON"),
            ("deep.json", String(repeating: "[", count: 100_000), 65, "nests deeper than 64"),
            ("nosize.json", #"{"height": 100, "slots": [\#(slot)]}"#, 65, "the template lacks \"width\""),
            ("typo.json", #"{"width": 100, "height": 100, "slots": [\#(slot)], "overlay": []}"#, 65, "has \"overlay\", which a template does not know"),
            ("huge.json", #"{"width": 8000, "height": 8000, "slots": [\#(slot)]}"#, 65, "more than the 36 megapixels"),
            ("nowhere.json", #"{"width": 100, "height": 100, "slots": [{"x": 500, "y": 0, "width": 64, "height": 64}]}"#, 65, "slot 1's centre 532,32 is off the 100x100 picture"),
            ("escape.json", #"{"width": 100, "height": 100, "slots": [\#(slot)], "background": {"picture": "../secret.png"}}"#, 65,
             "is not a file's name inside the template's folder"),
            ("linked.json", #"{"width": 100, "height": 100, "slots": [\#(slot)], "overlays": [{"picture": "link.png"}]}"#, 64, "a symbolic link"),
            ("missing.json", #"{"width": 100, "height": 100, "slots": [\#(slot)], "overlays": [{"picture": "gone.png"}]}"#, 64, "cannot be read"),
        ] {
            let path = folder.path(name)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let result = try await camctl("booth", "--device", "test", "--template", path, "--sink", "fakesink")
            #expect(result.status == Int32(status) && result.standardError.contains(words), "\(name): \(result.status) \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        }
        let both = try await camctl("booth", "--device", "test", "--template", folder.path("x.json"), "--layout", "1x4")
        #expect(both.status == 64 && both.standardError.contains("--layout and --template cannot be used together"), "\(both.standardError)")
    }
}
