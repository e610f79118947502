import Foundation
import TestSupport
import Testing

@Suite("Image options on the command line", .startsPrograms)
struct ImageOptionsTests {
    @Test("camctl filters lists every filter with what it does")
    func filtersListed() async throws {
        let result = try await Camctl()("filters")
        #expect(result.status == 0)
        for name in ["none", "mono", "noir", "sepia", "chrome", "fade", "invert", "warm", "cool", "heat", "xray", "xpro", "yellowblue"] {
            #expect(result.standardOutput.contains("\n\(name) ") || result.standardOutput.hasPrefix("\(name) "), "\(name) missing")
        }
    }

    @Test("Bad values are usage errors (64) with one sentence naming the option", arguments: [
        (["--zoom", "0"], "--zoom 0 is not a number from 1 to 8"),
        (["--zoom", "20"], "--zoom 20 is not a number from 1 to 8"),
        (["--filter", "sepa"], "--filter sepa is not a filter; did you mean sepia?"),
        (["--aspect", "wide"], "--aspect: the aspect ratio \"wide\" is not W:H"),
        (["--brightness", "3"], "--brightness 3 is not a number from -1 to 1"),
        (["--mirror", "left"], "--mirror left is not one of preview, photos, both or none"),
        (["--overlay", "/nonexistent/frame.png"], "--overlay: the drawing /nonexistent/frame.png cannot be read"),
    ])
    func badValues(options: [String], message: String) async throws {
        let result = try await Camctl().run(["capture", "--device", "test", "--no-library", "--output", "/dev/null"] + options)
        #expect(result.status == 64)
        #expect(result.standardError.hasPrefix("camctl: " + message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("A square, zoomed, turned sepia capture: the size, the orientation and the tint are in the file")
    func squareSepia() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let output = folder.path("square.jpg")
        let result = try await camctl("capture", "--device", "test", "--resolution", "1280x720", "--filter", "sepia", "--aspect", "1:1",
                                "--zoom", "1.5", "--rotate", "90", "--no-library", "--output", output)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await Camctl.exif(output, "ImageSize", "Orientation") == ["720x720", "Rotate 90 CW"])
        // ffmpeg averages the picture to one pixel: brown, red above green above blue.
        let mean = try await ChildProcess.run("ffmpeg", ["-v", "error", "-i", output, "-vf", "scale=1:1:flags=area",
                                                   "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]).standardOutputBytes
        #expect(mean.count == 3 && mean[0] > mean[1] && mean[1] > mean[2], "mean colour \(Array(mean))")
    }
}

extension ImageOptionsTests {
    @Test("--turn-pixels turns the photo itself: a 640x360 capture at 90 degrees is 360x640, upright in EXIF", arguments: ["--jpeg", "--hevc"])
    func turnedPixels(codec: String) async throws {
        let folder = try TemporaryFolder()
        let output = folder.path(codec == "--hevc" ? "turned.heic" : "turned.jpg")
        let result = try await Camctl()("capture", "--device", "test", "--resolution", "640x360", codec, "--rotate", "90", "--turn-pixels",
                                  "--no-library", "--output", output)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await Camctl.exif(output, "ImageSize", "Orientation") == ["360x640", "Horizontal (normal)"])
    }
}

@Suite("Camera controls on the command line", .startsPrograms)
struct CameraControlOptionsTests {
    @Test("devices --controls says the test camera has no V4L2 controls")
    func listed() async throws {
        let result = try await Camctl()("devices", "--controls")
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("no V4L2 controls (the test camera)"), "\(result.standardOutput)")
        // JSON has the controls as objects: none for the test camera.
        let json = Camctl.objects(try await Camctl()("devices", "--controls", "--json").standardOutput)
        let test = try #require(json.first { $0["test_camera"] as? Bool == true })
        #expect((test["controls"] as? [Any])?.isEmpty == true)
    }

    @Test("--control on a camera without V4L2 controls is a usage error naming where to look")
    func refusedOnTestCamera() async throws {
        let result = try await Camctl()("capture", "--device", "test", "--control", "exposure_time_absolute=300", "--no-library",
                                  "--output", "/dev/null")
        #expect(result.status == 64)
        #expect(result.standardError.contains("has no V4L2 controls, so --control cannot set exposure_time_absolute; "
            + "camctl devices --controls lists the cameras that have them"), "\(result.standardError)")
        let malformed = try await Camctl()("capture", "--device", "test", "--control", "exposure", "--no-library", "--output", "/dev/null")
        #expect(malformed.status == 64 && malformed.standardError.contains("is not KEY=VALUE"))
    }
}
