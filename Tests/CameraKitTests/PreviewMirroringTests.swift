@testable import CameraKit
import Testing

@Suite("Which previews are mirrored by default")
struct PreviewMirroringTests {
    static func camera(_ position: CaptureDevice.Position) -> CaptureDevice {
        CaptureDevice(id: "/dev/video0", name: "Camera", kind: .system(path: "/dev/video0", api: "v4l2", source: "v4l2src device=/dev/video0"),
                      position: position, capabilities: [])
    }

    @Test("A camera facing the person in front of it (front, external or not said) is mirrored; one facing back, the test camera and files are not; a setting wins")
    func defaults() {
        func mirrors(_ device: CaptureDevice, _ settings: ImageSettings = ImageSettings()) -> Bool {
            ImageStage(settings, frameWidth: 640, frameHeight: 480, device: device).mirrorsPreview
        }
        #expect(mirrors(Self.camera(.front)) && mirrors(Self.camera(.external)) && mirrors(Self.camera(.unspecified)))
        #expect(!mirrors(Self.camera(.back)))
        #expect(!mirrors(.testCamera()) && !mirrors(.custom("videotestsrc")))
        var mirrored = ImageSettings()
        mirrored.mirrorsPreview = true
        #expect(mirrors(Self.camera(.back), mirrored))
        mirrored.mirrorsPreview = false
        #expect(!mirrors(Self.camera(.front), mirrored))
    }
}
