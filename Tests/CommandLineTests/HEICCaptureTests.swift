import Foundation
import TestSupport
import Testing

@Suite("camctl capture --hevc writes HEIC that libheif, exiftool and ffmpeg judge", .startsPrograms)
struct HEICCaptureTests {
    @Test("A HEIC photo opens in heif-info and exiftool with its thumbnail, EXIF and Main Still Picture 4:2:0 8-bit")
    func heicCapture() async throws {
        let camctl = try Camctl()
        let result = try await camctl("capture", "--device", "test", "--hevc", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let photo = try #require(Camctl.objects(result.standardOutput).first)
        #expect(photo["codec"] as? String == "hevc")
        let path = try #require(photo["path"] as? String)
        #expect(path.hasSuffix(".heic"))
        let info = try await ChildProcess.run("heif-info", [path])
        #expect(info.status == 0, "\(info.standardError)")
        for line in ["MIME type: image/heic", "image: 1920x1080 (id=1), primary", "thumbnail: 320x180", "color profile: nclx"] {
            #expect(info.standardOutput.contains(line), "\(line) in \(info.standardOutput)")
        }
        #expect(info.standardOutput.range(of: #"Exif: [0-9]+ bytes"#, options: .regularExpression) != nil)
        #expect(try await Camctl.exif(path, "FileType", "ImageSize", "Make", "Model", "Orientation", "GeneralProfileIDC",
                                "ChromaFormat", "BitDepthLuma")
            == ["HEIC", "1920x1080", "camctl", "Test camera (smpte)", "Horizontal (normal)", "Main Still Picture", "4:2:0", "8"])
        #expect(try await Camctl.exif(path, "DateTimeOriginal").first?.hasPrefix("20") == true)
        #expect(try await ChildProcess.run("exiftool", ["-validate", "-warning", "-error", "-s3", path]).standardOutput.hasPrefix("OK"))
        // The library lists it as HEVC, with a JPEG thumbnail beside it.
        let listed = try #require(try await camctl.photos().first)
        #expect(listed["codec"] as? String == "hevc")
        #expect(try await Camctl.exif(try #require(listed["thumbnail_path"] as? String), "FileType", "ImageSize") == ["JPEG", "320x180"])
        let shown = Camctl.objects(try await camctl("library", "show", "1", "--json").standardOutput).first
        #expect(shown?["heif_items"] as? String == "1 hvc1 1920x1080 primary; 2 hvc1 320x180 thumbnail; 3 Exif")
    }

    @Test("The decoded HEIC matches the picture the camera saw, at least as closely as the JPEG of it")
    func pixelsMatch() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let source = folder.path("source.png")
        try await Camctl.testPicture(source, width: 640, height: 480, pattern: "pinwheel")
        for codec in ["--hevc", "--jpeg"] {
            let output = folder.path(codec == "--hevc" ? "photo.heic" : "photo.jpg")
            let result = try await camctl("capture", "--device", "file:\(source)", "--resolution", "photo", codec,
                                    "--no-library", "--output", output)
            #expect(result.status == 0, "\(result.standardError)")
        }
        let decoded = folder.path("decoded.png")
        #expect(try await ChildProcess.run("heif-convert", ["--quiet", folder.path("photo.heic"), decoded]).status == 0)
        let heic = try await Self.psnr(source, decoded), jpeg = try await Self.psnr(source, folder.path("photo.jpg"))
        #expect(heic >= Self.minimumPSNR, "HEIC PSNR \(heic) dB")
        #expect(heic >= jpeg, "HEIC \(heic) dB, JPEG \(jpeg) dB at the same quality setting")
    }

    @Test("A webcam's JPEG frames are encoded in their own colours, JPEG's full-range BT.601: libheif decodes the frame's own planes, unconverted")
    func ownColours() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let (jpeg, frame, heic, decoded) = (folder.path("frame.jpg"), folder.path("frame.y4m"), folder.path("photo.heic"), folder.path("decoded.y4m"))
        let made = try await ChildProcess.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=pinwheel", "!",
                                                                 "video/x-raw,width=640,height=480,format=I420", "!", "jpegenc", "!",
                                                                 "filesink", "location=\(jpeg)"])
        #expect(made.status == 0, "\(made.standardError)")
        let result = try await camctl("capture", "--device", "file:\(jpeg)", "--resolution", "photo", "--hevc", "--no-library", "--output", heic)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await Camctl.exif(heic, "MatrixCoefficients") == ["BT.601"])
        // The frame as the session holds it, and the HEIC's picture, both as YCbCr planes.
        #expect(try await ChildProcess.run("gst-launch-1.0", ["-q", "filesrc", "location=\(jpeg)", "!", "jpegdec", "!", "y4menc", "!",
                                                              "filesink", "location=\(frame)"]).status == 0)
        #expect(try await ChildProcess.run("heif-convert", ["--quiet", heic, decoded]).status == 0)
        let compared = try await ChildProcess.run("ffmpeg", ["-nostats", "-i", frame, "-i", decoded, "-lavfi", "psnr", "-f", "null", "-"])
        let luma = compared.standardError.firstMatch(of: /PSNR y:([0-9.]+)/).flatMap { Double($0.1) } ?? 0
        // Converted to limited-range BT.709 and back, the planes would be tens of decibels apart.
        #expect(luma >= Self.minimumPSNR, "luma PSNR \(luma) dB: \(compared.standardError.suffix(300))")
    }

    /// At quality 90 (CRF 22) a 640x480 pinwheel decodes at about 49 dB against the lossless
    /// source (its JPEG at quality 90: about 47 dB).
    static let minimumPSNR = 40.0

    @Test("--rotate 90 decodes turned, with the same orientation in irot and EXIF")
    func rotated() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let output = folder.path("turned.heic")
        #expect(try await camctl("capture", "--device", "test", "--resolution", "640x480", "--hevc", "--rotate", "90",
                           "--no-library", "--output", output).status == 0)
        #expect(try await ChildProcess.run("heif-info", [output]).standardOutput.contains("image: 480x640 (id=1), primary"))
        #expect(try await Camctl.exif(output, "Rotation", "Orientation") == ["270", "Rotate 90 CW"])
        let decoded = folder.path("turned.png")
        #expect(try await ChildProcess.run("heif-convert", ["--quiet", output, decoded]).status == 0)
        #expect(try await Camctl.exif(decoded, "ImageSize") == ["480x640"])
    }

    @Test("--heic-tiles writes a grid of 512x512 tiles that decodes to exactly 4032x3024")
    func tiles12MP() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let output = folder.path("grid.heic")
        let result = try await camctl("capture", "--device", "test", "--resolution", "4032x3024@15", "--hevc", "--heic-tiles",
                                "--no-library", "--output", output)
        #expect(result.status == 0, "\(result.standardError)")
        let info = try await ChildProcess.run("heif-info", [output])
        #expect(info.standardOutput.contains("image: 4032x3024 (id=1), primary"), "\(info.standardOutput)")
        let decoded = folder.path("grid.png")
        #expect(try await ChildProcess.run("heif-convert", ["--quiet", output, decoded]).status == 0)
        #expect(try await Camctl.exif(decoded, "ImageSize") == ["4032x3024"])
    }

    @Test("Tiles are placed where they belong: a tiled HEIC decodes as close to its source as a single one")
    func tilesInPlace() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let source = folder.path("source.png")
        // 1400x1000 leaves partial tiles at the right and bottom edges.
        try await Camctl.testPicture(source, width: 1400, height: 1000, pattern: "pinwheel")
        let output = folder.path("tiled.heic"), decoded = folder.path("tiled.png")
        #expect(try await camctl("capture", "--device", "file:\(source)", "--resolution", "photo", "--hevc", "--heic-tiles",
                           "--no-library", "--output", output).status == 0)
        #expect(try await ChildProcess.run("heif-convert", ["--quiet", output, decoded]).status == 0)
        let psnr = try await Self.psnr(source, decoded)
        #expect(psnr >= Self.minimumPSNR, "PSNR \(psnr) dB")
    }

    @Test("booth --hevc keeps HEIC shots and composes them")
    func boothHEIC() async throws {
        let camctl = try Camctl()
        let result = try await camctl("booth", "--device", "test", "--resolution", "640x480", "--countdown", "0", "--sink", "fakesink",
                                "--hevc", "--shots", "2", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let objects = Camctl.records(result.standardOutput)
        #expect(objects.map { $0["codec"] as? String } == ["hevc", "hevc", "jpeg"])
        #expect(try await Camctl.exif(try #require(objects[2]["path"] as? String), "ImageSize") == ["1328x512"])
    }

    /// The average PSNR of two pictures, as ffmpeg's psnr filter measures it.
    static func psnr(_ reference: String, _ picture: String) async throws -> Double {
        let result = try await ChildProcess.run("ffmpeg", ["-nostats", "-i", reference, "-i", picture, "-lavfi", "psnr", "-f", "null", "-"])
        guard let range = result.standardError.range(of: #"average:[0-9.]+"#, options: .regularExpression),
              let value = Double(result.standardError[range].dropFirst("average:".count)) else { return 0 }
        return value
    }
}
