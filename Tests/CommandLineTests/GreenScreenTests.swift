import Foundation
import Glibc
import TestSupport
import Testing

/// A green screen replaced by a picture: a camera showing a white ball moving over a green field,
/// keyed over a background, judged against the background itself.
@Suite("Green screen: --background", .startsPrograms)
struct GreenScreenTests {
    /// The camera: a white ball moving over a screen, pure green unless `screen` (ARGB) says
    /// otherwise, 640x360 at 30 fps (H.264, as a camera's movie would be), and the background:
    /// SMPTE bars at 75%, which have no white.
    static func scene(in folder: TemporaryFolder, screen: String = "0xff00ff00") async throws -> (camera: String, background: String) {
        let camera = folder.path("green.mp4"), background = folder.path("background.png")
        let made = try await ChildProcess.run("gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=90", "pattern=ball", "background-color=\(screen)", "foreground-color=0xffffffff",
            "!", "video/x-raw,width=640,height=360,framerate=30/1", "!", "videoconvert", "!", "video/x-raw,format=I420",
            "!", "x264enc", "!", "mp4mux", "!", "filesink", "location=\(camera)"])
        #expect(made.status == 0, "\(made.standardError)")
        try await Camctl.testPicture(background, width: 1280, height: 720, pattern: "smpte75")
        return (camera, background)
    }

    /// How a keyed picture compares with the background: the mean difference of its pixels
    /// outside the ball (and a margin of 6 pixels around it) from the background's, out of 255, and
    /// how many of its pixels are the ball's white.
    struct Comparison: CustomStringConvertible {
        let meanDifference: Double
        let ballPixels: Int
        var description: String { "mean difference \(meanDifference), \(ballPixels) white pixels" }
    }

    @_optimize(speed)  // a screen's million pixels, many times while waiting for it
    static func compare(_ picture: [UInt8], with background: [UInt8], width: Int, height: Int) -> Comparison {
        picture.withUnsafeBufferPointer { picture in
            background.withUnsafeBufferPointer { background in
                var (left, right, top, bottom, white) = (width, -1, height, -1, 0)
                for y in 0..<height {
                    for x in 0..<width {
                        let index = (y * width + x) * 3
                        guard picture[index] > 215, picture[index + 1] > 215, picture[index + 2] > 215 else { continue }
                        (left, right, top, bottom) = (min(left, x), max(right, x), min(top, y), max(bottom, y))
                        white += 1
                    }
                }
                var (sum, counted) = (0, 0)
                for y in 0..<height {
                    let nearBall = y >= top - 6 && y <= bottom + 6
                    for x in 0..<width where !(nearBall && x >= left - 6 && x <= right + 6) {
                        let index = (y * width + x) * 3
                        for channel in 0..<3 { sum += abs(Int(picture[index + channel]) - Int(background[index + channel])) }
                        counted += 3
                    }
                }
                return Comparison(meanDifference: Double(sum) / Double(max(1, counted)), ballPixels: white)
            }
        }
    }

    /// The bound on the mean difference: what JPEG and H.264 at their qualities leave of SMPTE bars' sharp edges.
    static let meanDifferenceBound = 6.0

    /// One frame of a movie or picture as RGB at `width`x`height`: the first, or with `fromEnd` the
    /// one that many seconds before its end.
    static func frame(of path: String, width: Int, height: Int, fromEnd: Double? = nil) async throws -> [UInt8] {
        let seek = fromEnd.map { ["-sseof", "-\($0)"] } ?? []
        // Through a file, read at once: a debug build takes seconds to gather megabytes from a pipe.
        let folder = try TemporaryFolder()
        let raw = folder.path("frame.rgb")
        let result = try await ChildProcess.run("ffmpeg", ["-v", "error"] + seek + ["-i", path, "-frames:v", "1", "-f", "rawvideo",
                                                          "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", raw])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: raw)).withUnsafeBytes { [UInt8]($0) }
        try #require(bytes.count == width * height * 3, "\(path): \(result.standardError)")
        return bytes
    }

    /// The ball's white pixels in the camera's own first frame.
    static func ballPixels(of camera: String) async throws -> Int {
        let frame = try await frame(of: camera, width: 640, height: 360)
        return Self.compare(frame, with: frame, width: 640, height: 360).ballPixels
    }

    @Test("A photo and a movie's frame: the background where the screen was, the ball kept")
    func photoAndMovie() async throws {
        let folder = try TemporaryFolder()
        let (camera, background) = try await Self.scene(in: folder)
        let ball = try await Self.ballPixels(of: camera)
        #expect(ball > 500, "the camera's ball: \(ball) pixels")
        let reference = try await Self.frame(of: background, width: 640, height: 360)
        let camctl = try Camctl()
        let photo = folder.path("keyed.jpg")
        let captured = try await camctl("capture", "--device", "file:\(camera)", "--resolution", "640x360", "--background", background,
                                        "--no-library", "--output", photo)
        #expect(captured.status == 0, "\(captured.standardError)")
        let keyed = Self.compare(try await Self.frame(of: photo, width: 640, height: 360), with: reference, width: 640, height: 360)
        #expect(keyed.meanDifference < Self.meanDifferenceBound, "\(keyed)")
        #expect(Double(keyed.ballPixels) > 0.8 * Double(ball) && Double(keyed.ballPixels) < 1.2 * Double(ball), "\(keyed), the camera's ball \(ball)")
        // Without the background the photo is the green field: far from the background.
        let plain = folder.path("plain.jpg")
        #expect(try await camctl("capture", "--device", "file:\(camera)", "--resolution", "640x360", "--no-library", "--output", plain).status == 0)
        let unkeyed = Self.compare(try await Self.frame(of: plain, width: 640, height: 360), with: reference, width: 640, height: 360)
        #expect(unkeyed.meanDifference > 40, "\(unkeyed)")

        let recorded = try await camctl("record", "--device", "file:\(camera)", "--resolution", "640x360@30", "--duration", "1",
                                        "--background", background, "--json")
        #expect(recorded.status == 0, "\(recorded.standardError)")
        let movie = try #require(Camctl.objects(recorded.standardOutput).first { $0["kind"] as? String == "movie" }?["path"] as? String,
                                 "\(recorded.standardOutput)")
        let last = Self.compare(try await Self.frame(of: movie, width: 640, height: 360, fromEnd: 0.1), with: reference, width: 640, height: 360)
        #expect(last.meanDifference < Self.meanDifferenceBound, "\(last)")
        #expect(Double(last.ballPixels) > 0.8 * Double(ball) && Double(last.ballPixels) < 1.2 * Double(ball), "\(last), the camera's ball \(ball)")
    }

    @Test("The default key takes pure green and standard chroma green (#00B140) screens out cleanly, the ball kept",
          arguments: ["0xff00ff00", "0xff00b140"])
    func defaultKey(screen: String) async throws {
        let folder = try TemporaryFolder()
        let (camera, background) = try await Self.scene(in: folder, screen: screen)
        let ball = try await Self.ballPixels(of: camera)
        #expect(ball > 500, "the camera's ball: \(ball) pixels")
        let reference = try await Self.frame(of: background, width: 640, height: 360)
        let photo = folder.path("keyed.jpg")
        let captured = try await Camctl()("capture", "--device", "file:\(camera)", "--resolution", "640x360", "--background", background,
                                          "--no-library", "--output", photo)
        #expect(captured.status == 0, "\(captured.standardError)")
        let keyed = Self.compare(try await Self.frame(of: photo, width: 640, height: 360), with: reference, width: 640, height: 360)
        #expect(keyed.meanDifference < Self.meanDifferenceBound, "\(keyed)")
        #expect(Double(keyed.ballPixels) > 0.8 * Double(ball) && Double(keyed.ballPixels) < 1.2 * Double(ball), "\(keyed), the camera's ball \(ball)")
    }

    @Test("--key sample finds a screen the default key misses (teal as lit, #2A9D8F): the colour said is the screen's, and the photo keys it cleanly; edges of no one colour are refused")
    func sampledKey() async throws {
        let folder = try TemporaryFolder()
        let (camera, background) = try await Self.scene(in: folder, screen: "0xff2a9d8f")
        let ball = try await Self.ballPixels(of: camera)
        let reference = try await Self.frame(of: background, width: 640, height: 360)
        let camctl = try Camctl()
        func keyed(_ key: String) async throws -> (Comparison, String) {
            let photo = folder.path("keyed-\(key).jpg")
            let captured = try await camctl("capture", "--device", "file:\(camera)", "--resolution", "640x360", "--background", background,
                                            "--key", key, "--no-library", "--output", photo)
            #expect(captured.status == 0, "\(captured.standardError)")
            return (Self.compare(try await Self.frame(of: photo, width: 640, height: 360), with: reference, width: 640, height: 360),
                    captured.standardError)
        }
        let (missed, _) = try await keyed("green")
        #expect(missed.meanDifference > 4 * Self.meanDifferenceBound, "the default key leaves this screen: \(missed)")
        let (sampled, said) = try await keyed("sample")
        #expect(sampled.meanDifference < Self.meanDifferenceBound, "\(sampled)")
        #expect(Double(sampled.ballPixels) > 0.8 * Double(ball) && Double(sampled.ballPixels) < 1.2 * Double(ball), "\(sampled), the camera's ball \(ball)")
        let hex = try #require(said.components(separatedBy: "the screen's colour, sampled: #").last?.prefix(6), "\(said)")
        let colour = try #require(UInt32(hex, radix: 16), "\(said)")
        let channels = [Int(colour >> 16 & 0xff), Int(colour >> 8 & 0xff), Int(colour & 0xff)]
        #expect(zip(channels, [0x2a, 0x9d, 0x8f]).allSatisfy { abs($0 - $1) <= 8 }, "the screen as the camera saw it: \(said)")

        // Colour bars at the edges are no screen: nothing is taken, and the sentence says what to do.
        let refused = try await camctl("capture", "--device", "file:\(background)", "--background", background, "--key", "sample",
                                       "--no-library", "--output", folder.path("bars.jpg"))
        #expect(refused.status == 64 && refused.standardError.contains("the picture's edges show no screen of one colour")
                && refused.standardError.contains("light the screen evenly"), "\(refused.status) \(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("bars.jpg")))
    }

    @Test("The page's Sample the screen (POST /api/settings/sample-key) keys a screen the default misses: the colour is kept, and a photo has the background where the screen was")
    func servedSample() async throws {
        let folder = try TemporaryFolder(), backgrounds = try TemporaryFolder()
        let camera = folder.path("teal.png"), background = backgrounds.path("bars.png")
        let made = try await ChildProcess.run("gst-launch-1.0", [
            "-q", "videotestsrc", "num-buffers=1", "pattern=ball", "background-color=0xff2a9d8f", "foreground-color=0xffffffff",
            "!", "video/x-raw,width=640,height=360", "!", "videoconvert", "!", "pngenc", "!", "filesink", "location=\(camera)"])
        try #require(made.status == 0, "\(made.standardError)")
        try await Camctl.testPicture(background, width: 1280, height: 720, pattern: "smpte75")
        let reference = try await Self.frame(of: background, width: 640, height: 360)
        let served = try await ServedCamera(extra: ["--device", "file:\(camera)", "--resolution", "640x360", "--backgrounds", backgrounds.url.path])
        defer { served.process.send(SIGTERM) }
        #expect(try await served.json("/api/settings", ["-X", "PUT", "-d", #"{"background": "bars.png"}"#]).status == 200)
        #expect(try await served.json("/api/settings/sample-key", ["-X", "POST"], withToken: false).status == 401, "a change needs the token")
        let sampled = try await served.json("/api/settings/sample-key", ["-X", "POST"])
        let key = try #require(sampled.object["key_color"] as? String, "\(sampled)")
        let colour = try #require(UInt32(key.dropFirst(), radix: 16), "\(key)")
        let channels = [Int(colour >> 16 & 0xff), Int(colour >> 8 & 0xff), Int(colour & 0xff)]
        #expect(key.count == 7 && zip(channels, [0x2a, 0x9d, 0x8f]).allSatisfy { abs($0 - $1) <= 8 }, "the screen as the camera saw it: \(key)")
        #expect(try await served.json("/api/settings").object["key_color"] as? String == key, "kept as the settings' key colour")
        let taken = try await served.json("/api/capture", ["-X", "POST"])
        let photo = try #require((taken.object["photos"] as? [[String: Any]])?.first?["path"] as? String, "\(taken)")
        let keyed = Self.compare(try await Self.frame(of: photo, width: 640, height: 360), with: reference, width: 640, height: 360)
        #expect(keyed.meanDifference < Self.meanDifferenceBound, "\(keyed)")
    }

    @Test("A description file keys the screen out, then takes the background away while the camera runs")
    func describedBackground() async throws {
        let folder = try TemporaryFolder()
        let (camera, background) = try await Self.scene(in: folder)
        let reference = try await Self.frame(of: background, width: 640, height: 360)
        let file = folder.path("keyed.camctl")
        try """
            camera "file:\(camera)"
            resolution 640x360
            background "\(background)" key green tolerance 40
            capture
            background none
            capture
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let camctl = try Camctl()
        let result = try await camctl("run", file, "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let photos = Camctl.objects(result.standardOutput).compactMap { $0["path"] as? String }
        try #require(photos.count == 2, "\(result.standardOutput)")
        let keyed = Self.compare(try await Self.frame(of: photos[0], width: 640, height: 360), with: reference, width: 640, height: 360)
        let plain = Self.compare(try await Self.frame(of: photos[1], width: 640, height: 360), with: reference, width: 640, height: 360)
        #expect(keyed.meanDifference < Self.meanDifferenceBound && plain.meanDifference > 40, "keyed: \(keyed); plain: \(plain)")
    }

    @Test("The preview on a screen shows the ball over the background")
    func preview() async throws {
        let folder = try TemporaryFolder()
        let (camera, background) = try await Self.scene(in: folder)
        let ball = try await Self.ballPixels(of: camera)
        // The 1280x720 screen shows the 640x360 picture scaled up twice.
        let reference = try await Self.frame(of: background, width: 1280, height: 720)
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        let preview = try camctl.start(["preview", "--device", "file:\(camera)", "--resolution", "640x360", "--background", background,
                                        "--fullscreen", "--sink", "ximagesink", "--duration", "600"], environment: ["DISPLAY": display.name])
        var shown = Comparison(meanDifference: 255, ballPixels: 0)
        let keyed = await until {
            guard let screen = try? await display.screenshot(), screen.count == 1280 * 720 * 3 else { return false }
            shown = Self.compare(screen, with: reference, width: 1280, height: 720)
            return shown.meanDifference < Self.meanDifferenceBound && shown.ballPixels > 0
        }
        #expect(keyed, "\(shown)")
        #expect(Double(shown.ballPixels) > 0.8 * 4 * Double(ball) && Double(shown.ballPixels) < 1.2 * 4 * Double(ball), "\(shown), the camera's ball \(ball)")
        preview.send(SIGINT)
        let result = await preview.finished(timeout: 120)
        #expect(result.status == 0 || result.status == 130, "\(result.standardError)")
    }

    @Test("A background that is missing, a folder, a FIFO, not a picture, or too large is refused in one sentence")
    func hostileBackgrounds() async throws {
        let folder = try TemporaryFolder()
        let camctl = try Camctl()
        let fifo = folder.path("fifo.png")
        #expect(mkfifo(fifo, 0o600) == 0)
        let garbage = folder.path("garbage.png")
        try Data("not a picture at all".utf8).write(to: URL(fileURLWithPath: garbage))
        // A PNG whose header claims 100000x100000 pixels.
        let huge = folder.path("huge.png")
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
                               0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 6, 0, 0, 0]
        let crc = header[12...].reduce(into: UInt32(0xFFFF_FFFF)) { crc, byte in
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        } ^ 0xFFFF_FFFF
        header += [UInt8(crc >> 24), UInt8(crc >> 16 & 0xff), UInt8(crc >> 8 & 0xff), UInt8(crc & 0xff)]
        try Data(header).write(to: URL(fileURLWithPath: huge))
        for (path, status, words) in [(folder.path("missing.png"), 64, "cannot be read"), (folder.url.path, 64, "cannot be read"),
                                      (fifo, 64, "cannot be read"), (garbage, 65, "is not a JPEG or PNG picture"),
                                      (huge, 65, "100000x100000")] {
            let result = try await camctl("capture", "--device", "test", "--background", path, "--no-library", "--output", folder.path("x.jpg"))
            #expect(result.status == Int32(status) && result.standardError.contains(words), "\(path): \(result.status) \(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        }
        let keyAlone = try await camctl("capture", "--device", "test", "--key", "blue")
        #expect(keyAlone.status == 64 && keyAlone.standardError.contains("give --background too"), "\(keyAlone.standardError)")
    }
}
