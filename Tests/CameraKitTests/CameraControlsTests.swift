@testable import CameraKit
import Foundation
import TestSupport
import Testing

@Suite("V4L2 camera controls and the flash", .hangGuard(minutes: 3))
struct CameraControlsTests {
    @Test("A node that is not a V4L2 camera has no controls and no flash")
    func notACamera() async throws {
        let controls = try CameraControls(path: "/dev/null")
        #expect(controls.controls().isEmpty)
        #expect(controls.control(0x009a_0901) == nil)  // V4L2_CID_EXPOSURE_AUTO
        let error = #expect(throws: CaptureError.self) { try controls.value(of: 0x0098_0900) }  // V4L2_CID_BRIGHTNESS
        #expect(error?.message.hasPrefix("the control 0x00980900 of /dev/null could not be read: ") == true)
        #expect(Flash(devicePath: "/dev/null") == nil)
    }

    @Test("A missing node is refused with the reason")
    func missingNode() async {
        let error = #expect(throws: CaptureError.self) { try CameraControls(path: "/dev/video-none") }
        #expect(error?.code == .deviceNotFound)
        #expect(error?.message == "/dev/video-none could not be opened for its controls: No such file or directory")
    }

    @Test("Without a flash, auto does not fire and on is refused naming the camera")
    func noFlash() async throws {
        var configuration = try CaptureSessionTests.configuration("320x240@30")
        configuration.exposureSettling = nil
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        var settings = PhotoSettings()
        settings.flashMode = .auto
        #expect(try await session.photoOutput.capture(settings).resolvedSettings.isFlashFired == false)
        settings.flashMode = .on
        let error = await #expect(throws: CaptureError.self) { try await session.photoOutput.capture(settings) }
        #expect(error?.message == "Test camera (smpte) has no flash; use flash off or auto")
        await session.stop()
    }
}
