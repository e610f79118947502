import Foundation
import TestSupport
import Testing

@Suite("Cameras shared through PipeWire", .timeLimit(.minutes(3)), .aside,
       .enabled(if: PipeWireCamera.isAvailable, "needs pipewire, wireplumber and gstreamer1.0-pipewire"))
struct PipeWireCameraTests {
    @Test("A PipeWire camera is found by name and read through pipewiresrc")
    func captureFromPipeWire() throws {
        let folder = try TemporaryFolder()
        let output = folder.path("photo.jpg")
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let result = try PipeWireCamera.run(camctl, ["capture", "--device", "pipewire test", "--resolution", "640x480",
                                                     "--output", output, "--print-pipeline"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("pipewiresrc target-object="), "the camera is read through PipeWire")
        let exif = try ChildProcess.run("exiftool", ["-s3", "-ImageSize", "-Model", output])
        #expect(exif.standardOutput == "640x480\n\(PipeWireCamera.name)\n")
    }
}
