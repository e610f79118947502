import Foundation
import TestSupport
import Testing

/// Failures that were told wrongly: each now gives one sentence that says what happened and what
/// to do, with the documented exit code, and loses nothing.
@Suite("Failures told truly", .startsPrograms)
struct FailureMessagesTests {
    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("A disk that fills while photos are saved: 74, and the files on disk are exactly the photos indexed",
          .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func diskFull() async throws {
        for size in ["320k", "400k", "480k"] {
            let mount = try TemporaryMount(options: "size=\(size)")
            let camctl = try Camctl()
            let library = mount.path("library")
            let result = try await camctl("capture", "--device", "test:snow", "--resolution", "640x480", "--count", "20", "--library", library)
            #expect(result.status == 74, "\(result.standardError)")
            #expect(result.standardError.contains("free some space"), "\(result.standardError)")
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: library).filter { $0.hasSuffix(".jpg") })
            let reopened = try await camctl("library", "list", "--json", "--library", library)
            #expect(!reopened.standardError.contains("without an entry"), "a photo reported lost was indexed later: \(reopened.standardError)")
            let indexed = Set(Camctl.objects(reopened.standardOutput).compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } })
            #expect(files == indexed)
            #expect(indexed.count == result.standardOutput.split(separator: "\n").count, "every photo reported saved, and no other")
        }
    }

    @Test("A library that may not be written is still listed, shown, exported and put on a sheet; delete says why (77)",
          .enabled(if: getuid() == 0, "running as another user needs root"))
    func readOnlyLibrary() async throws {
        let camctl = try Camctl()
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        let out = try TemporaryFolder()
        for folder in [camctl.library.url, out.url] { chmod(folder.path, 0o755) }
        chmod(out.url.path, 0o777)
        let nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", ChildProcess.buildFolder.appendingPathComponent("camctl").path]
        func run(_ arguments: String...) async throws -> ChildProcess.Result {
            try await ChildProcess.run(nobody[0], Array(nobody.dropFirst()) + arguments + ["--library", camctl.library.url.path])
        }
        let list = try await run("library", "list", "--json")
        #expect(list.status == 0 && Camctl.objects(list.standardOutput).count == 1, "\(list.standardError)")
        #expect(try await run("library", "show", "1").status == 0)
        #expect(try await run("library", "export", "1", out.path("copy.jpg")).status == 0)
        #expect(try await run("library", "sheet", "--output", out.path("sheet.jpg")).status == 0)
        let delete = try await run("library", "delete", "1")
        HostileInputTests.expectOneSentence(delete, 77, containing: "may not be written")
        #expect(try await camctl.photos().count == 1)
    }

    @Test("Results that standard output refuses (a full disk) exit 74, the photo kept", arguments: [
        ["capture", "--device", "test", "--resolution", "320x240", "--json"],
        ["capture", "--device", "test", "--resolution", "320x240", "--hevc"],
        ["library", "list", "--json"],
        ["library", "list"],
        ["devices", "--json"],
    ])
    func standardOutputFull(arguments: [String]) async throws {
        let camctl = try Camctl()
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        let command = ([ChildProcess.buildFolder.appendingPathComponent("camctl").path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let result = try await ChildProcess.run("/bin/sh", ["-c", "\(command) > /dev/full"], environment: ["CAMCTL_LIBRARY": camctl.library.url.path])
        HostileInputTests.expectOneSentence(result, 74, containing: "standard output could not be written")
        #expect(try await camctl.photos().count == (arguments[0] == "capture" ? 2 : 1))
    }

    @Test("A description file with CRLF line ends runs as with LF ones")
    func crlf() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path("crlf.camctl")
        try Self.write("param shots = 2\r\nrepeat $shots {\r\n  capture\r\n}\r\n", to: file)
        let camctl = try Camctl()
        let result = try await camctl("run", file, "--device", "test")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await camctl.photos().count == 2)
    }

    @Test("Broken and oversized PNG drawings are bad data (65) naming the file", arguments: ["cut", "flipped", "huge"])
    func brokenDrawings(kind: String) async throws {
        let folder = try TemporaryFolder()
        let drawing = folder.path("drawing.png"), photo = folder.path("photo.jpg")
        try await Camctl.testPicture(drawing, width: 320, height: 240, pattern: "snow")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: drawing)))
        switch kind {
        case "cut": bytes = Array(bytes.prefix(bytes.count / 2))
        case "flipped": bytes[bytes.count / 2] ^= 0xFF
        default: bytes = HostileBytes.pngHeader(width: 30_000, height: 30_000) + Array(bytes.dropFirst(33))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: drawing))
        #expect(try await Camctl()("capture", "--device", "test", "--resolution", "320x240", "--no-library", "--output", photo).status == 0)
        for arguments in [["overlay", photo, drawing, "--output", folder.path("out.jpg")],
                          ["capture", "--device", "test", "--overlay", drawing, "--no-library", "--output", folder.path("out.jpg")]] {
            let result = try await Camctl().run(arguments)
            HostileInputTests.expectOneSentence(result, 65, containing: drawing)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("out.jpg")))
    }

    @Test("Mistakes named for what they are", arguments: [
        (["capture", "--device", "test", "--hevc", "--resolution", "1x1", "--no-library", "--output", "/dev/null"], Int32(64), "smaller than the 16x16"),
        (["preview", "--device", "test", "--sink", "", "--duration", "1"], Int32(64), "--sink was given an empty value"),
        (["preview", "--device", "test", "--sink", "fakesink !", "--duration", "1"], Int32(64), "--sink \"fakesink !\" is not a sink"),
        (["capture", "--device", "test", "--output", ""], Int32(64), "--output was given an empty value"),
        (["capture", "--device", "test", "--library", ""], Int32(64), "--library was given an empty value"),
        (["capture", "--device", "file:"], Int32(69), "file: names no file"),
        (["capture", "--device", "test", "--filter", "mono+"], Int32(64), "--filter mono+ has an empty filter name"),
        (["capture", "--device", "test", "--count", "2", "--output", "x-%999999999d.jpg"], Int32(64), "more than 20 digits"),
    ])
    func namedMistakes(arguments: [String], status: Int32, message: String) async throws {
        let result = try await Camctl().run(arguments)
        HostileInputTests.expectOneSentence(result, status, containing: message)
        #expect(result.standardError.count < 400)
    }

    @Test("A library path that is a file, and an index that is a folder, say what is there")
    func libraryKinds() async throws {
        let folder = try TemporaryFolder()
        try Self.write("", to: folder.path("file"))
        let file = try await Camctl()("library", "list", "--library", folder.path("file"))
        HostileInputTests.expectOneSentence(file, 73, containing: "is a file, not a folder")
        try FileManager.default.createDirectory(atPath: folder.path("lib/library.sqlite"), withIntermediateDirectories: true)
        let index = try await Camctl()("library", "list", "--library", folder.path("lib"))
        HostileInputTests.expectOneSentence(index, 65, containing: "is not a file")
    }

    @Test("A video file used as a camera that ends says so")
    func videoEnds() async throws {
        let folder = try TemporaryFolder()
        let video = folder.path("short.mp4")
        let made = try await ChildProcess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc=d=1:s=320x240:r=10", "-pix_fmt", "yuv420p", video])
        try #require(made.status == 0, "\(made.standardError)")
        let camctl = try Camctl()
        let result = try await camctl("capture", "--device", "file:\(video)", "--count", "5", "--interval", "0.8")
        #expect(result.status == 69, "\(result.standardError)")
        #expect(result.standardError.contains("the video \(video) ended"), "\(result.standardError)")
        #expect(try await camctl.photos().count == result.standardOutput.split(separator: "\n").count)
    }

    @Test("Description-file mistakes: a filter that cannot link at its place, --set of no param, and at most 20 listed")
    func scriptMistakes() async throws {
        let folder = try TemporaryFolder()
        let audio = folder.path("audio.camctl")
        try Self.write("resolution 320x240\nfilter \"audioconvert\"\ncapture\n", to: audio)
        let link = try await Camctl()("run", audio, "--device", "test")
        #expect(link.status == 65, "\(link.standardError)")
        #expect(link.standardError.hasPrefix("\(audio):2:8: this filter cannot pass video frames on"), "\(link.standardError)")

        let params = folder.path("params.camctl")
        try Self.write("param shots = 2\ncapture\n", to: params)
        let set = try await Camctl()("run", params, "--device", "test", "--set", "shot=3")
        HostileInputTests.expectOneSentence(set, 64, containing: "--set shot: \(params) has no param shot; its params are shots")

        let wrong = folder.path("wrong.camctl")
        try Self.write(String(repeating: "nonsense\n", count: 100_000), to: wrong)
        let many = try await Camctl()("run", wrong, "--device", "test")
        #expect(many.status == 65)
        let lines = many.standardError.split(separator: "\n")
        #expect(lines.count == 22, "20 mistakes, the count of the rest, and the summary")
        #expect(lines.last == "camctl: \(wrong) has 100000 mistakes; nothing was run")
    }

    @Test("A copy that cannot be written says the photo is in the library")
    func failedCopy() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let pattern = folder.path("shot-%d.jpg")
        try FileManager.default.createDirectory(atPath: folder.path("shot-2.jpg"), withIntermediateDirectories: false)
        let result = try await camctl("capture", "--device", "test", "--resolution", "320x240", "--count", "2", "--output", pattern)
        HostileInputTests.expectOneSentence(result, 73, containing: "the photo is in the library as ")
        #expect(try await camctl.photos().count == 2)
    }
}
