@testable import CameraKit
import TestSupport
import Testing

@Suite("Photo encoders started on first use, or early for prepared settings", .hangGuard(minutes: 2))
struct PreparedPhotoSettingsTests {
    /// The JPEG encoders the running session has started (or is starting).
    static func started(_ session: CaptureSession) -> Int? {
        session.photoOutput.runningEncoders?.encoders.jpegCount
    }

    @Test("Unprepared, a session starts no encoder before its first photo, which starts the photo's and the thumbnail's; prepared before the start or while running, both start at once and the photo uses them")
    func startedEarlyOrOnFirstUse() async throws {
        let configuration = try CaptureSessionTests.configuration("320x240@30")
        let lazy = CaptureSession(configuration: configuration)
        try await lazy.start()
        #expect(Self.started(lazy) == 0)
        _ = try await lazy.photoOutput.capture()
        #expect(Self.started(lazy) == 2)
        await lazy.stop()

        let prepared = CaptureSession(configuration: configuration)
        prepared.photoOutput.setPreparedPhotoSettings([PhotoSettings()])
        try await prepared.start()
        #expect(Self.started(prepared) == 2)
        let photo = try await prepared.photoOutput.capture()
        #expect(!photo.fileData.isEmpty && !photo.thumbnailData.isEmpty)
        #expect(Self.started(prepared) == 2)
        await prepared.stop()

        let running = CaptureSession(configuration: configuration)
        try await running.start()
        running.photoOutput.setPreparedPhotoSettings([PhotoSettings()])
        #expect(Self.started(running) == 2)
        _ = try await running.photoOutput.capture()
        #expect(Self.started(running) == 2)
        await running.stop()
    }
}
