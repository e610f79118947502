import CameraKit
import Foundation
import TestSupport
import Testing

/// A DSLR or mirrorless camera as the session drives it, through its seam for tethered cameras: a
/// camera of the test's own gives real live view JPEGs (libgphoto2's virtual camera has no live
/// view), photos from its card, a shutter that hangs, and a cable pulled out and plugged back.
@Suite("A DSLR's live view, shots and cable, through the session's seam for tethered cameras", .startsPrograms)
struct TetheredCameraTests {
    static func session(_ camera: ScriptedDSLR, change: (inout SessionConfiguration) throws -> Void = { _ in }) rethrows -> CaptureSession {
        var configuration = SessionConfiguration()
        configuration.device = .gphoto2(model: camera.model, port: camera.port)
        configuration.framesDroppedAfterStart = 0
        try change(&configuration)
        return CaptureSession(configuration: configuration, tetheredCameras: camera)
    }

    @Test("Live view JPEGs are decoded into the session's picture at its size, and a photo is the camera's file, not a frame of it")
    func liveView() async throws {
        let camera = ScriptedDSLR(liveView: [try await ScriptedDSLR.jpeg(color: 0xb0_6040, width: 960, height: 640)])
        let session = try Self.session(camera) { $0.format = try FormatRequest(parsing: "720x480@30") }
        try await session.start()
        #expect(await session.activeFormat.map { "\($0.width)x\($0.height)" } == "720x480")
        // The picture's colour is the live view's, give or take what JPEG and the session's own
        // colour conversions move it by (a few levels each).
        let color = try await session.sampleScreenColor()
        let near = { (seen: UInt8, made: UInt8) in abs(Int(seen) - Int(made)) <= 16 }
        #expect(near(color.red, 0xb0) && near(color.green, 0x60) && near(color.blue, 0x40), "\(color)")
        #expect(camera.previews > 0 && session.cameraFrameCount > 0)

        let file = try await ScriptedDSLR.jpeg(color: 0x20_60a0, width: 1200, height: 800)
        camera.willShoot([("DSC_0001.JPG", file)])
        let photo = try await session.photoOutput.capture()
        #expect(photo.fileData == file && photo.width == 1200 && photo.height == 800, "the camera's own file, at its size")
        #expect(camera.cardFiles == ["DSC_0001.JPG"], "left on the card unless asked otherwise")
        await session.stop()
    }

    @Test("A camera unplugged mid-session interrupts it in one sentence; plugged back, the session resumes and shoots again")
    func lostAndFound() async throws {
        let camera = ScriptedDSLR(liveView: [try await ScriptedDSLR.jpeg(color: 0x80_8080, width: 640, height: 426)])
        let session = Self.session(camera) { $0.resumesAutomatically = true; $0.deletesFromCameraCard = true }
        let events = session.events()
        try await session.start()
        #expect(await until { camera.previews > 0 })
        camera.plug(false)
        var seen: [String] = []
        for await event in events {
            if case .interrupted(let failure) = event {
                seen.append("interrupted")
                #expect(failure.code == .deviceNotFound && failure.message.contains("no such camera is connected at \(camera.port)"), "\(failure)")
                camera.plug(true)
            }
            if event == .resumed {
                seen.append("resumed")
                break
            }
        }
        #expect(seen == ["interrupted", "resumed"])
        let file = try await ScriptedDSLR.jpeg(color: 0x40_4040, width: 600, height: 400)
        camera.willShoot([("DSC_0002.JPG", file)])
        let photo = try await session.photoOutput.capture()
        #expect(photo.fileData == file)
        #expect(camera.cardFiles == ["DSC_0002.JPG"], "on the card until the photo is kept")
        await photo.releaseCameraFiles()
        #expect(camera.cardFiles.isEmpty, "deleted from the card once kept, as asked")
        await session.stop()
    }

    @Test("A shot the camera does not finish in time is given up in one sentence, its late file left on the card; the next shot is taken")
    func shotTimesOut() async throws {
        let camera = ScriptedDSLR()
        // The shutter is held until after the time-out is seen, so the outcome never depends on how
        // fast the machine is; the second is only the shortest time-out the sentence names.
        let session = Self.session(camera) { $0.cameraShotTimeout = .seconds(1); $0.deletesFromCameraCard = true }
        try await session.start()
        let late = try await ScriptedDSLR.jpeg(color: 0x10_1010, width: 600, height: 400), next = try await ScriptedDSLR.jpeg(color: 0x90_9090, width: 600, height: 400)
        camera.willShoot([("DSC_0003.JPG", late)])
        camera.willShoot([("DSC_0004.JPG", next)])
        camera.hangShutter()
        let error = await #expect(throws: CaptureError.self) { try await session.photoOutput.capture() }
        #expect(error?.code == .timeout && error?.message.hasPrefix("the camera did not take the photo within 1 second; check that it is on") == true,
                "\(String(describing: error))")
        #expect(await session.status == .running)
        camera.releaseShutter()
        let photo = try await session.photoOutput.capture()
        #expect(photo.fileData == next)
        await photo.releaseCameraFiles()
        #expect(camera.cardFiles == ["DSC_0003.JPG"], "the late shot is not lost: it stays on the card")
        await session.stop()
    }

    @Test("Two shots asked at once on a RAW+JPEG camera: each photo comes with its own RAW file, neither taking the other's")
    func concurrentShots() async throws {
        let camera = ScriptedDSLR()
        let session = try Self.session(camera)
        try await session.start()
        let first = try await ScriptedDSLR.jpeg(color: 0x20_2020, width: 300, height: 200)
        let second = try await ScriptedDSLR.jpeg(color: 0xe0_e0e0, width: 300, height: 200)
        // Each camera names its RAW file first and tells of the JPEG after.
        camera.willShoot([("DSC_0101.NEF", [1, 1, 1]), ("DSC_0101.JPG", first)])
        camera.willShoot([("DSC_0102.NEF", [2, 2, 2]), ("DSC_0102.JPG", second)])
        async let one = session.photoOutput.capture()
        async let two = session.photoOutput.capture()
        let photos = try await [one, two]
        let pairs = Set(photos.map { "\($0.fileData == first ? "first" : $0.fileData == second ? "second" : "?")+\($0.cameraRaw?.name ?? "none")" })
        #expect(pairs == ["first+DSC_0101.NEF", "second+DSC_0102.NEF"], "\(pairs)")
        await session.stop()
    }
}
