import Foundation
import GIF
import TestSupport
import Testing

@Suite("Animated GIFs written in Swift, read by ffmpeg", .computes)
struct AnimatedGIFTests {
    /// The frames ffmpeg decodes from a GIF file, as RGB.
    static func decoded(_ gif: [UInt8], width: Int, height: Int) async throws -> [[UInt8]] {
        let folder = try TemporaryFolder()
        let path = folder.path("animation.gif")
        try Data(gif).write(to: URL(fileURLWithPath: path))
        let result = try await ChildProcess.run("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-vsync", "passthrough", "-"])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = [UInt8](result.standardOutputBytes), size = width * height * 3
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    @Test("Four colours in random noise, which fills the code table many times over, come back exactly")
    func exactColours() async throws {
        var generator = SystemRandomNumberGenerator()
        let colours: [[UInt8]] = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]]
        let (width, height) = (301, 203)  // odd sizes: no row or code lines up by chance
        let pictures = (0..<2).map { _ in (0..<width * height).flatMap { _ in colours[Int.random(in: 0..<4, using: &generator)] } }
        let gif = AnimatedGIF.encode(pictures, width: width, height: height, centiseconds: [50])
        let frames = try await Self.decoded(gif, width: width, height: height)
        #expect(frames.count == 2)
        for (frame, picture) in zip(frames, pictures) {
            // Each colour is kept as its bin's centre: within 4 levels a channel, and never another colour.
            #expect(zip(frame, picture).allSatisfy { abs(Int($0) - Int($1)) <= 4 })
        }
    }

    @Test("A photo-like picture keeps its look in 256 colours; the file says its size, pictures and length")
    func photoLike() async throws {
        let (width, height) = (320, 240)
        let pictures = (0..<3).map { shift -> [UInt8] in
            var picture: [UInt8] = []
            for y in 0..<height {
                for x in 0..<width {
                    picture += [UInt8((x + shift * 40) % 256), UInt8(y), UInt8((x * y / 97 + shift * 30) % 256)]
                }
            }
            return picture
        }
        let gif = AnimatedGIF.encode(pictures, width: width, height: height, centiseconds: [60, 60, 120])
        let frames = try await Self.decoded(gif, width: width, height: height)
        #expect(frames.count == 3)
        for (frame, picture) in zip(frames, pictures) {
            var error = 0
            for (decoded, original) in zip(frame, picture) { error += abs(Int(decoded) - Int(original)) }
            // Thousands of colours spread over the whole cube, in 256 and dithered: about 8 levels
            // off on average (a palette gone wrong is tens of levels off).
            #expect(Double(error) / Double(picture.count) < 10, "mean error \(Double(error) / Double(picture.count)) levels")
        }
        let file = try GIFFile(parsing: gif)
        #expect(file.width == 320 && file.height == 240 && file.frameCount == 3 && abs(file.duration - 2.4) < 1e-9)
        let folder = try TemporaryFolder()
        try Data(gif).write(to: URL(fileURLWithPath: folder.path("photo-like.gif")))
        let probed = try await ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0",
                                                      folder.path("photo-like.gif")])
        #expect(probed.standardOutput.hasPrefix("gif,320,240"), "\(probed.standardOutput)")
    }

    @Test("Every cut of a GIF, and bytes that are not one, are refused with a reason; none is read past its end")
    func damaged() async throws {
        let gif = AnimatedGIF.encode([[UInt8](repeating: 90, count: 16 * 16 * 3)], width: 16, height: 16, centiseconds: [10])
        #expect(try GIFFile(parsing: gif).frameCount == 1)
        for length in 0..<gif.count {
            #expect(throws: GIFFile.Malformed.self) { try GIFFile(parsing: Array(gif.prefix(length))) }
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var damaged = gif
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let read = try? GIFFile(parsing: damaged) { #expect(read.frameCount >= 1 && read.duration >= 0) }
        }
        #expect(throws: GIFFile.Malformed.self) { try GIFFile(parsing: Array("GIF89a".utf8) + [UInt8](repeating: 0xFF, count: 800)) }
    }
}
