import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl capture", .startsPrograms)
struct CaptureCommandTests {
    @Test("In a terminal, a photo's path starts a line of its own after the countdown's rewritten line",
          .enabled(if: ChildProcess.isInstalled("script"), "needs script(1) for a terminal"))
    func pathAfterCountdown() async throws {
        let camctl = try Camctl()
        let result = try await camctl.inTerminal(["capture", "--device", "test", "--resolution", "320x240", "--countdown", "1"], keys: [])
        #expect(result.status == 0, "\(result.standardOutput)")
        // What the terminal shows of the path's line: the text after its last carriage return.
        let line = try #require(result.standardOutput.split(separator: "\n").first { $0.contains(".jpg") }, "\(result.standardOutput)")
        let shown = line.split(separator: "\r", omittingEmptySubsequences: false).last ?? ""
        #expect(!shown.contains("taking the photo"), "the countdown's text shares the path's line: \(line.debugDescription)")
        #expect(result.standardOutput.contains("taking the photo in 1"), "\(result.standardOutput)")
    }

    @Test("A capture goes into the library and to --output, as a JPEG other tools open")
    func captureIntoLibraryAndOutput() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let output = folder.path("photo.jpg")
        let result = try await camctl("capture", "--device", "test", "--resolution", "640x480", "--output", output)
        #expect(result.status == 0, "\(result.standardError)")
        let photos = try await camctl.photos()
        #expect(photos.count == 1)
        let stored = try #require(photos.first?["path"] as? String)
        #expect(result.standardOutput == stored + "\n", "the library path is printed")
        #expect(stored.hasPrefix(camctl.library.url.path))
        for path in [stored, output] {
            #expect(try await Camctl.exif(path, "FileType", "ImageWidth", "ImageHeight", "Make", "Model")
                == ["JPEG", "640", "480", "camctl", "Test camera (smpte)"])
            let discovered = try await ChildProcess.run("gst-discoverer-1.0", [path])
            #expect(discovered.standardOutput.contains("video(image) #0: JPEG"))
        }
        let thumbnail = try #require(photos.first?["thumbnail_path"] as? String)
        #expect(try await Camctl.exif(thumbnail, "ImageWidth", "ImageHeight") == ["320", "240"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["photo.jpg"], "no temporary files stay behind")
    }

    @Test("A JPEG photo carries its thumbnail in EXIF's IFD1, as cameras do, and still validates", arguments: [
        ("640x480", "320x240"), ("4032x3024", "320x240"),
    ])
    func embeddedThumbnail(resolution: String, thumbnailSize: String) async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let result = try await camctl("capture", "--device", "test", "--resolution", resolution)
        #expect(result.status == 0, "\(result.standardError)")
        let photo = try #require(try await camctl.photos().first?["path"] as? String)
        let extracted = try await ChildProcess.run("exiftool", ["-b", "-ThumbnailImage", photo]).standardOutputBytes
        let thumbnail = folder.path("thumbnail.jpg")
        try extracted.write(to: URL(fileURLWithPath: thumbnail))
        #expect(try await Camctl.exif(thumbnail, "FileType", "ImageSize") == ["JPEG", thumbnailSize])
        #expect(try await ChildProcess.run("exiftool", ["-validate", "-warning", "-error", "-s3", photo]).standardOutput.hasPrefix("OK"))
        #expect(try await Camctl.exif(photo, "Orientation", "ImageSize") == ["Horizontal (normal)", resolution])
    }

    @Test("A photo's time is written on the local clock of the machine's time zone, with its offset, and named by it",
          arguments: [("Europe/Berlin", "+01:00"), ("America/New_York", "-05:00"), ("Asia/Kolkata", "+05:30"), ("UTC", "+00:00")])
    func localTime(zone: String, offset: String) async throws {
        let camctl = try Camctl()
        let before = Date()
        let result = try await camctl("capture", "--device", "test", "--resolution", "320x240", environment: ["TZ": zone])
        #expect(result.status == 0, "\(result.standardError)")
        let path = result.standardOutput.trimmingCharacters(in: .newlines)
        let written = try await Camctl.exif(path, "DateTimeOriginal", "OffsetTimeOriginal")
        #expect(written.last == offset, "December's offset of \(zone)")
        let local = DateFormatter()
        local.timeZone = TimeZone(identifier: zone)
        local.dateFormat = "yyyy:MM:dd HH:mm"
        let minutes = [before, Date()].map { local.string(from: $0) }
        #expect(minutes.contains { written.first?.hasPrefix($0) == true }, "\(written) against \(minutes)")
        local.dateFormat = "yyyyMMdd-HH"
        #expect(minutes.isEmpty || [before, Date()].contains { URL(fileURLWithPath: path).lastPathComponent.hasPrefix(local.string(from: $0)) })
    }

    @Test("A picture used as a camera is photographed at its own size with --resolution photo, and by default within the preset's")
    func fileCameraOwnSize() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let picture = folder.path("picture.png")
        try await Camctl.testPicture(picture, width: 800, height: 600, pattern: "smpte")
        let result = try await camctl("capture", "--device", "file:\(picture)", "--resolution", "photo", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let photo = try #require(Camctl.objects(result.standardOutput).first)
        #expect(photo["width"] as? Int == 800 && photo["height"] as? Int == 600)
        // Without --resolution, a preset's size: its own when within it, else its own shape within it; never bars.
        let small = folder.path("small.png"), large = folder.path("large.png")
        try await Camctl.testPicture(small, width: 640, height: 480, pattern: "smpte")
        try await Camctl.testPicture(large, width: 2400, height: 2400, pattern: "smpte")
        for (file, size) in [(small, (640, 480)), (large, (1080, 1080))] {
            let taken = try await camctl("capture", "--device", "file:\(file)", "--json")
            #expect(taken.status == 0, "\(taken.standardError)")
            let record = try #require(Camctl.objects(taken.standardOutput).first)
            #expect(record["width"] as? Int == size.0 && record["height"] as? Int == size.1, "\(file): \(record)")
        }
    }

    @Test("JPEG photos use the full range: white is white and black is black", arguments: [("white", 255), ("black", 0)])
    func fullRange(pattern: String, value: Int) async throws {
        let camctl = try Camctl()
        let result = try await camctl("capture", "--device", "test:\(pattern)", "--resolution", "64x64", "--no-library", "--output", "-")
        #expect(result.status == 0, "\(result.standardError)")
        let folder = try TemporaryFolder()
        try result.standardOutputBytes.write(to: URL(fileURLWithPath: folder.path("photo.jpg")))
        let pixels = try await ChildProcess.run("ffmpeg", ["-loglevel", "error", "-i", folder.path("photo.jpg"), "-f", "rawvideo",
                                                     "-pix_fmt", "gray", "-"]).standardOutputBytes
        #expect(pixels.count == 64 * 64)
        #expect(pixels.allSatisfy { abs(Int($0) - value) <= 2 }, "\(pattern): \(pixels.prefix(4).map { $0 })")
    }

    @Test("--count with --json prints one object per photo, each a distinct frame, with a pattern for copies")
    func countWithJSON() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let result = try await camctl("capture", "--device", "test:ball", "--resolution", "320x240", "--count", "3", "--json",
                                "--output", folder.path("shot-%02d.jpg"), "--metadata", folder.path("shot-%02d.json"))
        #expect(result.status == 0, "\(result.standardError)")
        let objects = Camctl.records(result.standardOutput)
        #expect(objects.count == 3)
        #expect(Camctl.objects(result.standardOutput).filter { $0["event"] as? String == "shot" }.count == 3, "each photo's shot told")
        for (index, object) in objects.enumerated() {
            for key in ["path", "id", "width", "height", "codec", "captured_at", "device", "thumbnail_path"] {
                #expect(object[key] != nil, "\(key) is in every object")
            }
            #expect(object["width"] as? Int == 320 && object["height"] as? Int == 240 && object["codec"] as? String == "jpeg")
            #expect(object["output"] as? String == folder.path(String(format: "shot-%02d.jpg", index + 1)))
            let sidecar = try Data(contentsOf: URL(fileURLWithPath: folder.path(String(format: "shot-%02d.json", index + 1))))
            let metadata = try JSONSerialization.jsonObject(with: sidecar) as? [String: Any]
            #expect(metadata?["id"] as? Int == object["id"] as? Int)
        }
        let files = try objects.map { try Data(contentsOf: URL(fileURLWithPath: try #require($0["path"] as? String))) }
        #expect(Set(files).count == 3, "three different frames")
        #expect(try await camctl.photos().count == 3)
    }

    @Test("--output - writes the photo to standard output; --latest and --exec follow each photo")
    func scriptingHooks() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let piped = try await camctl("capture", "--device", "test", "--resolution", "160x120", "--output", "-", "--no-library")
        #expect(piped.status == 0, "\(piped.standardError)")
        let jpeg = folder.path("piped.jpg")
        try piped.standardOutputBytes.write(to: URL(fileURLWithPath: jpeg))
        #expect(try await Camctl.exif(jpeg, "FileType", "ImageWidth") == ["JPEG", "160"], "the JPEG, and only it, on stdout")
        #expect(try await camctl.photos().isEmpty)
        let latest = folder.path("latest.jpg")
        let log = folder.path("hook.log")
        let result = try await camctl("capture", "--device", "test", "--resolution", "160x120", "--count", "2",
                                "--latest", latest, "--exec", "echo \"$CAMCTL_ID $CAMCTL_PHOTO\" >> \(log)")
        #expect(result.status == 0, "\(result.standardError)")
        let paths = result.standardOutput.split(separator: "\n").map(String.init)
        try #require(paths.count == 2, "\(result.standardOutput)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: latest) == paths[1])
        let hooked = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(hooked == ["1 \(paths[0])", "2 \(paths[1])"])
    }

    @Test("A photo written to a standard output nobody reads fails with 74 instead of a silent success")
    func closedStandardOutput() async throws {
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        // head reads one byte and goes; the rest of a 1080p JPEG meets a closed pipe.
        let result = try await ChildProcess.run("bash", ["-c", "set -o pipefail; \(camctl) capture --device test --no-library --output - | head -c 1 >/dev/null"])
        #expect(result.status == 74, "\(result.standardError)")
        #expect(result.standardError == "camctl: the photo could not be written to standard output: the reader went away; it is not kept anywhere else\n")
    }

    @Test("Usage errors exit 64 with one sentence", arguments: [
        (["shoot"], "unknown command \"shoot\"; run camctl help"),
        (["captur"], "unknown command \"captur\"; did you mean capture?"),
        (["capture", "--qualty", "5"], "capture has no option --qualty; did you mean --quality?"),
        (["capture", "--bogus"], "capture has no option --bogus; camctl capture --help lists its options"),
        (["capture", "--quality", "0"], "--quality 0 is not a number from 1 to 100"),
        (["capture", "--quality", "high"], "--quality high is not a number from 1 to 100"),
        (["capture", "--count", "-2"], "--count -2 is not a number from 1 to 100000"),
        (["capture", "--count", "0"], "--count 0 is not a number from 1 to 100000"),
        (["capture", "--countdown", "soon"], "--countdown soon is not a number of seconds from 0 to 86400"),
        (["capture", "--resolution", "big"], "--resolution: \"big\" is not a resolution"),
        (["capture", "--device"], "--device needs a value (D)"),
        (["capture", "--flash", "maybe"], "--flash maybe is not one of off, on or auto"),
        (["capture", "--prioritize", "fast"], "--prioritize fast is not one of speed, balanced or quality"),
        (["capture", "--jpeg", "--hevc"], "--jpeg and --hevc cannot be used together"),
        (["capture", "--library", "/tmp/x", "--no-library"], "--library and --no-library cannot be used together"),
        (["capture", "--no-library"], "--no-library needs --output PATH"),
        (["capture", "--count", "3", "--output", "/tmp/same.jpg"], "--output /tmp/same.jpg would be overwritten by each photo"),
        (["capture", "extra"], "capture does not take \"extra\""),
        (["capture", "--json=yes"], "--json takes no value"),
        (["booth", "--layout", "3x3"], "--layout 3x3 is not one of 2x2 or 1x4"),
        (["booth", "--shots", "40"], "--shots 40 is not a number from 1 to 16"),
        (["booth", "--device", "test", "--no-library"], "--no-library needs --output PATH for the composed picture"),
        (["preview", "--duration", "-1"], "--duration -1 is not a number of seconds from 0"),
        (["preview", "--duration"], "--duration needs a value (SECONDS)"),
        (["library"], "library needs an action"),
        (["library", "lst"], "library has no action \"lst\"; did you mean list?"),
        (["library", "show"], "library show needs ID"),
        (["library", "show", "abc"], "\"abc\" is not a photo id"),
        (["library", "sheet"], "library sheet needs --output PATH"),
        (["capture", "--review-timeout", "5"], "--review-timeout needs --review"),
        (["serve", "--node", "a"], "--node needs --broker mqtt://HOST[:PORT]"),
        (["serve", "--broker", "http://x", "--fleet", "f"], "--broker http://x is not mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"),
        (["serve", "--broker", "mqtt://127.0.0.1", "--fleet", "a/b"], "--broker needs --fleet NAME: letters, digits, - and _"),
        (["serve", "--listen", "nowhere"], "--listen nowhere is not ADDRESS:PORT"),
        (["help", "nothing"], "there is no command \"nothing\""),
        (["capture", "--rotate", "45"], "--rotate 45 is not one of 0, 90, 180 or 270"),
        (["capture", "--heic-tiles"], "--heic-tiles needs --hevc"),
        (["capture", "--device", "test", "--flash", "on"], "has no flash"),
    ])
    func usageErrors(arguments: [String], message: String) async throws {
        let camctl = try Camctl()
        let result = try await camctl.run(arguments)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("camctl: "))
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "one line, no dump")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("Camera and file failures give their documented exit codes", arguments: [
        (["capture", "--device", "test", "--output", "/nonexistent-folder/photo.jpg"], Int32(73), "its folder does not exist"),
        (["capture", "--device", "test:plaid"], Int32(69), "the test camera has no pattern \"plaid\""),
        (["capture", "--device", "file:/nonexistent.png"], Int32(69), "/nonexistent.png does not exist"),
        (["capture", "--device", "/dev/video9"], Int32(69), "there is no camera at /dev/video9"),
        (["library", "show", "99"], Int32(64), "the library has no photo 99"),
        (["capture", "--device", "file:/etc/hostname"], Int32(65), "/etc/hostname is not a picture or video GStreamer can read"),
    ])
    func failures(arguments: [String], status: Int32, message: String) async throws {
        let camctl = try Camctl()
        let result = try await camctl.run(arguments)
        #expect(result.status == status)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "one line, no dump")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("A camera node the user may not open names the group to join", .enabled(if: getuid() == 0, "needs root to act as another user"))
    func permissionDenied() async throws {
        let folder = try TemporaryFolder()
        let node = folder.path("video7")
        #expect(FileManager.default.createFile(atPath: node, contents: nil))
        #expect(chown(node, 0, 44) == 0 && chmod(node, 0o660) == 0)  // root:video, as udev leaves camera nodes
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let output = "/tmp/camctl-denied-\(getpid()).jpg"
        let result = try await ChildProcess.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                      camctl, "capture", "--device", node, "--output", output, "--no-library"])
        #expect(result.status == 77)
        #expect(result.standardError == "camctl: you may not open \(node); add yourself to the video group (sudo usermod -aG video $USER) and log in again\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
