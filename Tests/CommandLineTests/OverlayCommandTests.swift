import Foundation
import TestSupport
import Testing

@Suite("camctl overlay: a drawing over a photo", .startsPrograms)
struct OverlayCommandTests {
    /// A green 640x480 photo taken by camctl (with EXIF), and a red drawing of the same size with a
    /// transparent 200x200 hole in its middle.
    static func fixtures(in folder: TemporaryFolder, photoOptions: [String] = []) async throws -> (photo: String, drawing: String) {
        let green = folder.path("green.png"), drawing = folder.path("drawing.png"), photo = folder.path("photo.jpg")
        #expect(try await ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=0x00c000:s=640x480", "-frames:v", "1", green]).status == 0)
        #expect(try await ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=red:s=640x480,format=rgba,"
            + "geq=r='255':g='0':b='0':a='if(between(X,220,419)*between(Y,140,339),0,255)'", "-frames:v", "1", drawing]).status == 0)
        let result = try await Camctl().run(["capture", "--device", "file:\(green)", "--resolution", "photo", "--no-library",
                                   "--output", photo] + photoOptions)
        #expect(result.status == 0, "\(result.standardError)")
        return (photo, drawing)
    }

    /// The colour of one stored pixel, as ffmpeg decodes it (not turned by the EXIF orientation).
    static func pixel(_ path: String, x: Int, y: Int) async throws -> [UInt8] {
        Array(try await ChildProcess.run("ffmpeg", ["-v", "error", "-noautorotate", "-i", path, "-vf", "format=rgb24,crop=1:1:\(x):\(y)", "-f", "rawvideo",
                                              "-pix_fmt", "rgb24", "-"]).standardOutputBytes)
    }

    @Test("Inside the drawing's transparent hole the photo shows, outside it the drawing; size and EXIF are the photo's")
    func hole() async throws {
        let folder = try TemporaryFolder()
        let (photo, drawing) = try await Self.fixtures(in: folder)
        let output = folder.path("drawn.jpg")
        let result = try await Camctl()("overlay", photo, drawing, "--output", output)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await Camctl.exif(output, "ImageSize") == ["640x480"])
        #expect(try await Camctl.exif(output, "Make") == Camctl.exif(photo, "Make"))
        let inside = try await Self.pixel(output, x: 320, y: 240), outside = try await Self.pixel(output, x: 40, y: 40)
        #expect(inside.count == 3 && inside[1] > 150 && inside[0] < 60, "inside the hole: \(inside)")
        #expect(outside.count == 3 && outside[0] > 200 && outside[1] < 60, "outside the hole: \(outside)")
    }

    @Test("--output - writes the drawn photo to standard output, not to a file named -")
    func standardOutput() async throws {
        let folder = try TemporaryFolder()
        let (photo, drawing) = try await Self.fixtures(in: folder)
        let result = try await Camctl().run(["overlay", photo, drawing, "--output", "-"], in: folder.url)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutputBytes.prefix(2) == Data([0xFF, 0xD8]) && result.standardOutputBytes.count > 1000)
        #expect(!FileManager.default.fileExists(atPath: folder.path("-")))
    }

    @Test("On a photo turned by its EXIF orientation, the drawing goes where it was placed on the photo as shown")
    func orientation() async throws {
        let folder = try TemporaryFolder()
        let (photo, drawing) = try await Self.fixtures(in: folder, photoOptions: ["--rotate", "90"])
        let output = folder.path("drawn.jpg")
        // Shown 480x640; a quarter-size drawing at the top left of what is shown.
        let result = try await Camctl()("overlay", photo, drawing, "--output", output, "--scale", "0.25", "--position", "0,0")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await Camctl.exif(output, "ImageSize", "Orientation") == ["640x480", "Rotate 90 CW"])
        // The shown top left is the stored bottom left: red there, green at the stored top left.
        let storedBottomLeft = try await Self.pixel(output, x: 20, y: 460), storedTopLeft = try await Self.pixel(output, x: 20, y: 20)
        #expect(storedBottomLeft.count == 3 && storedBottomLeft[0] > 200 && storedBottomLeft[1] < 60, "\(storedBottomLeft)")
        #expect(storedTopLeft.count == 3 && storedTopLeft[1] > 150 && storedTopLeft[0] < 60, "\(storedTopLeft)")
    }

    @Test("A drawing that is not a PNG and a photo that cannot be read or holds no pixels are bad data (65)")
    func badFiles() async throws {
        let folder = try TemporaryFolder()
        let (photo, drawing) = try await Self.fixtures(in: folder)
        let notPNG = try await Camctl()("overlay", photo, photo, "--output", folder.path("x.jpg"))
        #expect(notPNG.status == 65 && notPNG.standardError.contains("is not a PNG picture"), "\(notPNG.standardError)")
        try Data("not a photo".utf8).write(to: folder.url.appendingPathComponent("broken.jpg"))
        let broken = try await Camctl()("overlay", folder.path("broken.jpg"), drawing, "--output", folder.path("y.jpg"))
        #expect(broken.status == 65 && broken.standardError.contains("not a JPEG"), "\(broken.standardError)")
        // A JPEG whose frame header says 0x0: damaged data, whatever the drawing's place.
        let empty: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9]
        try Data(empty).write(to: folder.url.appendingPathComponent("empty.jpg"))
        let nothing = try await Camctl()("overlay", folder.path("empty.jpg"), drawing, "--output", folder.path("e.jpg"))
        #expect(nothing.status == 65 && nothing.standardError.contains("0x0 pixels, so it holds no picture"), "\(nothing.standardError)")
        let giant = try await Camctl()("overlay", photo, drawing, "--output", folder.path("g.jpg"), "--scale", "100")
        #expect(giant.status == 64 && giant.standardError.contains("use a smaller --scale"), "\(giant.standardError)")
        let missing = try await Camctl()("overlay", folder.path("missing.jpg"), drawing, "--output", folder.path("z.jpg"))
        #expect(missing.status == 65, "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.jpg")) && !FileManager.default.fileExists(atPath: folder.path("y.jpg")))
    }

    @Test("capture --overlay draws a frame on the photo")
    func captureOverlay() async throws {
        let folder = try TemporaryFolder()
        let (_, drawing) = try await Self.fixtures(in: folder)
        let output = folder.path("framed.jpg")
        let result = try await Camctl()("capture", "--device", "file:\(folder.path("green.png"))", "--resolution", "640x480",
                                  "--overlay", drawing, "--no-library", "--output", output)
        #expect(result.status == 0, "\(result.standardError)")
        let inside = try await Self.pixel(output, x: 320, y: 240), outside = try await Self.pixel(output, x: 40, y: 40)
        #expect(inside.count == 3 && inside[1] > 150 && inside[0] < 60, "inside the frame: \(inside)")
        #expect(outside.count == 3 && outside[0] > 200 && outside[1] < 60, "on the frame: \(outside)")
    }

    @Test("The drawn photo goes into the library with a thumbnail, and its EXIF holds a thumbnail of the drawn photo that exiftool reads; --no-library needs --output")
    func libraryAndThumbnail() async throws {
        let folder = try TemporaryFolder()
        let (photo, drawing) = try await Self.fixtures(in: folder)
        let camctl = try Camctl()
        let result = try await camctl("overlay", photo, drawing)
        #expect(result.status == 0, "\(result.standardError)")
        let photos = try await camctl.photos()
        let added = try #require(photos.first, "the drawn photo is in the library")
        #expect(photos.count == 1 && result.standardOutput == "\(added["path"] as? String ?? "")\n", "\(result.standardOutput) \(photos)")
        let path = try #require(added["path"] as? String), thumbnailPath = try #require(added["thumbnail_path"] as? String)
        #expect(FileManager.default.fileExists(atPath: thumbnailPath), "\(added)")
        // The EXIF thumbnail is of the drawn photo: red at its corner (the drawing), green in its middle (the hole).
        let embedded = folder.path("embedded.jpg")
        let extracted = try await ChildProcess.run("exiftool", ["-b", "-ThumbnailImage", path])
        try extracted.standardOutputBytes.write(to: URL(fileURLWithPath: embedded))
        #expect(try await Camctl.exif(embedded, "ImageSize") == ["160x120"])
        let corner = try await Self.pixel(embedded, x: 8, y: 8), middle = try await Self.pixel(embedded, x: 80, y: 60)
        #expect(corner.count == 3 && corner[0] > 200 && corner[1] < 80, "the drawing in the thumbnail: \(corner)")
        #expect(middle.count == 3 && middle[1] > 150 && middle[0] < 80, "the photo in the thumbnail's middle: \(middle)")
        #expect(try await Camctl.exif(path, "Make") == Camctl.exif(photo, "Make"))
        let nowhere = try await camctl("overlay", photo, drawing, "--no-library")
        #expect(nowhere.status == 64 && nowhere.standardError.contains("--no-library needs --output PATH"), "\(nowhere.standardError)")
    }

    @Test("A HEIC photo is drawn on as it is shown (its turn applied), written as a JPEG keeping its EXIF; a damaged HEIC is bad data in one sentence")
    func heic() async throws {
        let folder = try TemporaryFolder()
        let (_, drawing) = try await Self.fixtures(in: folder)
        let photo = folder.path("photo.heic"), output = folder.path("drawn.jpg")
        let taken = try await Camctl()("capture", "--device", "file:\(folder.path("green.png"))", "--resolution", "photo", "--hevc",
                                       "--rotate", "90", "--no-library", "--output", photo)
        #expect(taken.status == 0, "\(taken.standardError)")
        let camctl = try Camctl()
        let result = try await camctl("overlay", photo, drawing, "--output", output, "--scale", "0.25", "--position", "0,0")
        #expect(result.status == 0, "\(result.standardError)")
        // Shown 480x640 and stored so: the quarter-size drawing at the top left, the photo below it.
        #expect(try await Camctl.exif(output, "ImageSize", "Orientation") == ["480x640", "Horizontal (normal)"])
        #expect(try await Camctl.exif(output, "Make") == Camctl.exif(photo, "Make"))
        let corner = try await Self.pixel(output, x: 20, y: 20), below = try await Self.pixel(output, x: 20, y: 400)
        #expect(corner.count == 3 && corner[0] > 200 && corner[1] < 60, "the drawing at the top left: \(corner)")
        #expect(below.count == 3 && below[1] > 150 && below[0] < 60, "the photo below it: \(below)")
        #expect(try await camctl.photos().count == 1, "the drawn photo is in the library too")
        var damaged = try [UInt8](Data(contentsOf: URL(fileURLWithPath: photo)))
        damaged.removeLast(damaged.count / 2)
        try Data(damaged).write(to: URL(fileURLWithPath: photo))
        let broken = try await camctl("overlay", photo, drawing, "--output", output)
        #expect(broken.status == 65 && broken.standardError.hasPrefix("camctl: \(photo): the HEIC"), "\(broken.standardError)")
        #expect(broken.standardError.split(separator: "\n").count == 1)
    }
}
