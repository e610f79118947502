import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl capture writes a JPEG from the test camera", .timeLimit(.minutes(1)))
struct CommandLineTests {
    @Test("A capture writes a JPEG of the requested size that other tools open")
    func captureWritesJPEG() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("photo.jpg")
        let result = try ChildProcess.runBuilt("camctl", ["capture", "--device", "test", "--resolution", "640x480", "--output", output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == output + "\n")
        let exif = try ChildProcess.run("exiftool", ["-s3", "-FileType", "-ImageWidth", "-ImageHeight", output])
        #expect(exif.standardOutput.split(separator: "\n") == ["JPEG", "640", "480"])
        let discovered = try ChildProcess.run("gst-discoverer-1.0", [output])
        #expect(discovered.status == 0)
        #expect(discovered.standardOutput.contains("video(image) #0: JPEG"))
        #expect(discovered.standardOutput.contains("Width: 640"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(leftovers == ["photo.jpg"], "no temporary files stay behind")
    }

    @Test("Failures end with one sentence and a documented exit code", arguments: [
        (["capture", "--device", "test", "--output", "/nonexistent-folder/photo.jpg"], Int32(73), "its folder does not exist"),
        (["shoot"], Int32(64), "unknown command \"shoot\""),
        (["capture", "--quality", "0"], Int32(64), "--quality 0 is not a number from 1 to 100"),
        (["capture", "--resolution", "big"], Int32(64), "--resolution: \"big\" is not a resolution"),
        (["capture", "--device", "test", "--hevc"], Int32(64), "HEVC (HEIC) photos are coming"),
        (["capture", "--device", "test", "--flash", "on"], Int32(64), "has no flash"),
        (["capture", "--device", "test:plaid"], Int32(69), "the test camera has no pattern \"plaid\""),
        (["capture", "--device", "file:/nonexistent.png"], Int32(69), "/nonexistent.png does not exist"),
        (["capture", "--device"], Int32(64), "--device needs a value"),
        (["capture", "--device", "/dev/video9"], Int32(69), "there is no camera at /dev/video9"),
    ])
    func failures(arguments: [String], status: Int32, message: String) throws {
        let result = try ChildProcess.runBuilt("camctl", arguments)
        #expect(result.status == status)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "one line, no dump")
        #expect(result.standardOutput.isEmpty)
    }

    @Test("A camera node the user may not open names the group to join", .enabled(if: getuid() == 0, "needs root to act as another user"))
    func permissionDenied() throws {
        let folder = try TemporaryFolder()
        let node = folder.path("video7")
        #expect(FileManager.default.createFile(atPath: node, contents: nil))
        #expect(chown(node, 0, 44) == 0 && chmod(node, 0o660) == 0)  // root:video, as udev leaves camera nodes
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let output = "/tmp/camctl-denied-\(getpid()).jpg"
        let result = try ChildProcess.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                      camctl, "capture", "--device", node, "--output", output])
        #expect(result.status == 77)
        #expect(result.standardError == "camctl: you may not open \(node); add yourself to the video group (sudo usermod -aG video $USER) and log in again\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
