import Foundation
import Glibc
import TestSupport
import Testing

/// Destinations camctl writes to that hold something else: it writes as `cp` does, never replaces
/// a device, FIFO, folder or the library's own files, and leaves what is not its own alone.
@Suite("Files that were not ours", .startsPrograms)
struct ForeignFilesTests {
    static func kind(_ path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & S_IFMT : nil
    }

    @Test("A copy of a device node stays a device, written into; a folder and a dangling link are refused untouched")
    func specialDestinations() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let null = folder.path("null")
        if getuid() == 0 {
            #expect(mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0)
            for option in ["--output", "--metadata"] {
                let result = try await camctl("capture", "--device", "test", "--resolution", "320x240", option, null)
                #expect(result.status == 0, "\(option): \(result.standardError)")
                #expect(Self.kind(null) == S_IFCHR, "\(option) wrote into the device, not over it")
            }
        }
        try FileManager.default.createDirectory(atPath: folder.path("dir"), withIntermediateDirectories: false)
        let intoFolder = try await camctl("capture", "--device", "test", "--output", folder.path("dir"))
        HostileInputTests.expectOneSentence(intoFolder, 73, containing: "it is a folder")
        try FileManager.default.createSymbolicLink(atPath: folder.path("dangling.jpg"), withDestinationPath: folder.path("nowhere/x.jpg"))
        let dangling = try await camctl("capture", "--device", "test", "--output", folder.path("dangling.jpg"))
        HostileInputTests.expectOneSentence(dangling, 73, containing: "symbolic link to")
        #expect(Self.kind(folder.path("dangling.jpg")) == S_IFLNK)
        let fifo = folder.path("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(try await camctl.photos().count == (getuid() == 0 ? 2 : 0), "the refused ones stopped before the camera started")
        // A FIFO's reader may come while the camera starts, so it is looked for only when the copy is written.
        let noReader = try await camctl("capture", "--device", "test", "--output", fifo)
        HostileInputTests.expectOneSentence(noReader, 73, containing: "no program is reading")
        #expect(noReader.standardError.contains("the photo is in the library"))
        #expect(Self.kind(fifo) == S_IFIFO)
    }

    @Test("A symbolic link is followed: its target gets the photo, the link stays; /dev/stdout reaches standard output")
    func links() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder.path("target.jpg")))
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.jpg"), withDestinationPath: folder.path("target.jpg"))
        let result = try await camctl("capture", "--device", "test", "--resolution", "320x240", "--output", folder.path("link.jpg"))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Self.kind(folder.path("link.jpg")) == S_IFLNK)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("target.jpg"))).prefix(2) == Data([0xFF, 0xD8]))
        let stdout = try await camctl("capture", "--device", "test", "--resolution", "320x240", "--no-library", "--output", "/dev/stdout")
        #expect(stdout.status == 0, "\(stdout.standardError)")
        #expect(stdout.standardOutputBytes.prefix(2) == Data([0xFF, 0xD8]), "the JPEG went through the pipe")
    }

    @Test("A regular file at --output is replaced, as cp replaces it; --latest replaces only its own link")
    func regularFilesAndLatest() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let output = folder.path("photo.jpg")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240", "--output", output).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).count > 1000)
        let latest = folder.path("latest.jpg")
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240", "--latest", latest).status == 0)
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240", "--latest", latest).status == 0)
        #expect(Self.kind(latest) == S_IFLNK)
        let mine = folder.path("mine.txt")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: mine))
        let refused = try await camctl("capture", "--device", "test", "--latest", mine)
        HostileInputTests.expectOneSentence(refused, 73, containing: "only replaces its own link")
        #expect(try String(contentsOfFile: mine, encoding: .utf8) == "keep")
    }

    @Test("No command's output replaces a file of a library: its index, a photo or a thumbnail, named straight or through a link")
    func outputsNeverReplaceLibraryFiles() async throws {
        let camctl = try Camctl()
        let library = camctl.library
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        let photo = try #require(try await camctl.photos().first?["path"] as? String)
        let thumbnail = library.path("thumbnails/" + URL(fileURLWithPath: photo).lastPathComponent)
        let outside = try TemporaryFolder()
        let link = outside.path("looks-harmless.jpg")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: photo)
        let drawing = outside.path("drawing.png")
        #expect(try await ChildProcess.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=16,height=16", "!",
                                                           "pngenc", "!", "filesink", "location=\(drawing)"]).status == 0)
        let files = [library.path("library.sqlite"), photo, thumbnail]
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        for destination in files + [link] {
            for command in [["record", "--device", "test", "--duration", "0.2", "--sink", "fakesink", "--output", destination],
                            ["overlay", photo, drawing, "--no-library", "--output", destination],
                            ["library", "sheet", "--output", destination],
                            ["booth", "--device", "test", "--shots", "1", "--countdown", "0", "--show-result", "0", "--sink", "fakesink",
                             "--output", destination],
                            ["capture", "--device", "test", "--output", destination]] {
                let result = try await camctl.run(command)
                HostileInputTests.expectOneSentence(result, 73, containing: "inside the photo library")
            }
        }
        let collecting = try await camctl.run(["fleet", "collect", "--broker", "mqtt://127.0.0.1:1", "--fleet", "rig", "--into", library.url.path])
        HostileInputTests.expectOneSentence(collecting, 64, containing: "is a photo library; collect into it with --library")
        #expect(try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before, "every file of the library is as it was")
        #expect(try await camctl("library", "list").status == 0)
    }

    @Test("library export never writes inside the library; copies and links inside it are never indexed")
    func insideTheLibrary() async throws {
        let camctl = try Camctl()
        let library = camctl.library
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        let index = library.path("library.sqlite")
        let indexBefore = try Data(contentsOf: URL(fileURLWithPath: index))
        for destination in [index, library.url.path, library.path("copy.jpg"), library.path("thumbnails")] {
            let result = try await camctl("library", "export", "1", destination)
            HostileInputTests.expectOneSentence(result, 73, containing: "inside the photo library")
        }
        #expect(!FileManager.default.fileExists(atPath: library.path("copy.jpg")))
        #expect(try await camctl("capture", "--device", "test", "--output", index).status == 73, "a copy never replaces the index")
        #expect(try Data(contentsOf: URL(fileURLWithPath: index)).count >= indexBefore.count)
        // A copy and a link made inside the library folder are the user's files, not photos.
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240", "--output", library.path("copy-%d.jpg"),
                           "--latest", library.path("latest.jpg")).status == 0)
        let photos = try await camctl.photos()
        #expect(photos.count == 2)
        #expect(photos.allSatisfy { ($0["device"] as? String) != "unknown" })
    }

    @Test("library delete with a tampered thumbnail row deletes nothing outside the library")
    func tamperedThumbnail() async throws {
        let camctl = try Camctl()
        let outside = try TemporaryFolder()
        let victim = outside.path("victim.txt")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        let sql = "UPDATE photos SET thumbnail = '../../../../../../../..\(victim)'"
        let tampered = try await ChildProcess.run("/usr/bin/python3", ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()",
                                                                 camctl.library.path("library.sqlite"), sql])
        try #require(tampered.status == 0, "\(tampered.standardError)")
        let deleted = try await camctl("library", "delete", "1")
        #expect(deleted.status == 0, "\(deleted.standardError)")
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test("--output over a private file keeps its mode, owner and group, as cp does")
    func outputKeepsOwnership() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let output = folder.path("private.jpg")
        try Data("old".utf8).write(to: URL(fileURLWithPath: output))
        #expect(chmod(output, 0o600) == 0)
        let owner: (uid_t, gid_t) = getuid() == 0 ? (65534, 65534) : (getuid(), getgid())  // root may give it to nobody
        #expect(chown(output, owner.0, owner.1) == 0)
        #expect(try await camctl("capture", "--device", "test", "--resolution", "160x120", "--output", output).status == 0)
        var status = stat()
        #expect(stat(output, &status) == 0)
        #expect(status.st_size > 1000, "the photo replaced the file")
        #expect(status.st_mode & 0o777 == 0o600, "still private: \(String(status.st_mode & 0o777, radix: 8))")
        #expect(status.st_uid == owner.0 && status.st_gid == owner.1)
    }

    @Test("A library's folders keep what camctl did not make there; a link in a subfolder's place is refused with one sentence")
    func libraryKeepsForeignFiles() async throws {
        let camctl = try Camctl()
        let library = try TemporaryFolder(), elsewhere = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: library.path("thumbnails"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: library.path("thumbnails/notes.txt")))
        try Data("mine".utf8).write(to: URL(fileURLWithPath: library.path(".notes.tmp")))
        #expect(try await camctl("library", "list", "--library", library.url.path).status == 0)
        #expect(!FileManager.default.fileExists(atPath: library.path("library.sqlite")), "reading a library makes nothing")
        #expect(try await camctl("capture", "--device", "test", "--resolution", "160x120", "--library", library.url.path).status == 0)
        #expect(try await camctl("library", "list", "--library", library.url.path).status == 0)
        for name in ["thumbnails/notes.txt", ".notes.tmp"] {
            #expect(FileManager.default.contents(atPath: library.path(name)) == Data("mine".utf8), "\(name)")
        }

        let orphan = elsewhere.path("20270115-080000.000-zzzzzz.jpg")  // a thumbnail of no photo, were it in the library
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: orphan))
        try FileManager.default.moveItem(atPath: library.path("thumbnails"), toPath: library.path("thumbnails-moved"))
        try FileManager.default.createSymbolicLink(atPath: library.path("thumbnails"), withDestinationPath: elsewhere.url.path)
        let refused = try await camctl("capture", "--device", "test", "--resolution", "160x120", "--library", library.url.path)
        HostileInputTests.expectOneSentence(refused, 73, containing: "is a symbolic link")
        #expect(try await camctl("library", "list", "--library", library.url.path, "--json").standardOutput.split(separator: "\n").count == 1)
        #expect(FileManager.default.contents(atPath: orphan) == Data("theirs".utf8))
    }

    @Test("Description files with file or network elements are refused unless --allow-raw-io", arguments: [
        "filter \"tee name=t ! queue ! filesink location=/tmp/camctl-leak.raw t. ! queue\"",
        "source \"filesrc location=/etc/hostname ! fakesink\"",
        "filter \"identity ! udpsink host=127.0.0.1 port=9\"",
    ])
    func rawInputOutput(line: String) async throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("io.camctl", holding: "\(line)\ncapture\n")
        let refused = try await Camctl()("run", file, "--device", "test", "--dry-run")
        #expect(refused.status == 65, "\(refused.standardError)")
        #expect(refused.standardError.hasPrefix("\(file):1:"), "\(refused.standardError)")
        #expect(refused.standardError.contains("--allow-raw-io"))
        let allowed = try await Camctl()("run", file, "--device", "test", "--dry-run", "--allow-raw-io")
        #expect(!allowed.standardError.contains("--allow-raw-io"), "\(allowed.standardError)")
    }

    @Test("print strips terminal control sequences, whatever a param carries")
    func printStripsEscapes() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("print.camctl", holding: "param message = hi\nprint \"$message\"\n")
        let result = try await Camctl()("run", file, "--device", "test", "--no-library", "--set", "message=\u{1B}[2J\u{1B}]0;owned\u{07}hello\u{9B}31m")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.standardOutput.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" },
                "\(result.standardOutput.debugDescription)")
        #expect(result.standardOutput.contains("hello"))
    }

    @Test("A PNG bomb as --overlay or as an overlay drawing is refused from its header, in little memory", arguments: [true, false])
    func pngBomb(asOverlayOption: Bool) async throws {
        let folder = try TemporaryFolder()
        // 20000x20000, compressed to nothing: the header says what decoding would cost.
        let bomb = folder.path("bomb.png")
        let made = try await ChildProcess.run("/usr/bin/python3", ["-c", """
            import struct, zlib, sys
            def chunk(kind, body): return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
            row = b'\\x00' + b'\\x00' * 20000 * 4
            data = zlib.compressobj(9)
            idat = b''.join(data.compress(row) for _ in range(20000)) + data.flush()
            open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 20000, 20000, 8, 6, 0, 0, 0)) + chunk(b'IDAT', idat) + chunk(b'IEND', b''))
            """, bomb])
        try #require(made.status == 0, "\(made.standardError)")
        let photo = folder.path("photo.jpg")
        #expect(try await Camctl()("capture", "--device", "test", "--resolution", "320x240", "--no-library", "--output", photo).status == 0)
        let arguments = asOverlayOption
            ? ["/usr/bin/time", "-f", "%M", ChildProcess.buildFolder.appendingPathComponent("camctl").path, "capture", "--device", "test",
               "--overlay", bomb, "--no-library", "--output", folder.path("x.jpg")]
            : ["/usr/bin/time", "-f", "%M", ChildProcess.buildFolder.appendingPathComponent("camctl").path, "overlay", photo, bomb,
               "--output", folder.path("x.jpg")]
        let result = try await ChildProcess.run(arguments[0], Array(arguments.dropFirst()))
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("20000x20000 pixels"), "\(result.standardError)")
        let kilobytes = Int(result.standardError.split(separator: "\n").last ?? "") ?? .max
        #expect(kilobytes < 300_000, "peak memory \(kilobytes) KiB")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.jpg")))
    }
}
