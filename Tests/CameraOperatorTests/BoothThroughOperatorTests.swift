import CameraKit
import CameraOperator
import PhotoLibrary
import Testing
import TestSupport

@Suite("A booth driven through SessionOperator.perform", .hangGuard(minutes: 2))
struct BoothThroughOperatorTests {
    /// What a booth leaves in a library, in the order it was saved: size, codec, albums, and
    /// whether the picture is the composed one (no thumbnail).
    private static func saved(in folder: String) throws -> [String] {
        try PhotoLibrary(folder: folder).photos().sorted { $0.id < $1.id }.map { photo in
            "\(photo.width)x\(photo.height) \(photo.codec) \(photo.albums) \(photo.thumbnailPath == nil ? "composed" : "shot")"
        }
    }

    @Test("Countdowns, shots and a composed strip, with no command-line code, save what camctl booth saves")
    func boothThroughPerform() async throws {
        let operated = try TemporaryFolder(), commanded = try TemporaryFolder()

        var configuration = SessionConfiguration()
        configuration.device = try DeviceDiscovery.device(named: "test:ball")
        configuration.format = FormatRequest(width: 640, height: 480, frameRate: nil)
        configuration.preview = PreviewConfiguration(sink: "fakesink", showsText: true)
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        let delivery = try PhotoDelivery(library: PhotoLibrary(folder: operated.url.path), pictureCount: 3)
        let booth = SessionOperator(camera: session, delivery: delivery, device: configuration.device, albums: ["booth"])
        var plan = BoothPlan()
        (plan.shots, plan.countdown, plan.layout, plan.showShots, plan.showResult) = (3, 0.2, .strip, 0.2, 0)
        let stream = booth.events()
        let listening = Task {
            var told: [OperatorEvent] = []
            for await event in stream {
                told.append(event)
                if event == .showing(.result) { break }
            }
            return told
        }
        guard case .boothTaken(let shots, let composed?) = try await booth.perform(.booth(plan)) else {
            Issue.record("the booth did not compose its shots")
            return
        }
        let shotPaths = shots.compactMap { $0.delivered?.path }, strip = composed
        let told = await listening.value
        #expect(told.contains(.shot(number: 3, of: 3)) && told.contains(.showing(.shots)) && told.contains(.cleared), "\(told)")
        guard case .stopped = try await booth.perform(.stop) else {
            Issue.record("the booth did not stop")
            return
        }
        #expect(shotPaths.count == 3 && strip.item.isComposed)
        #expect(strip.libraryPhoto.map { "\($0.width)x\($0.height)" } == "672x1504")

        let result = try await ChildProcess.run(ChildProcess.buildFolder.appendingPathComponent("camctl").path, [
            "booth", "--device", "test:ball", "--resolution", "640x480", "--countdown", "0.2", "--sink", "fakesink",
            "--shots", "3", "--layout", "1x4", "--show-result", "0", "--library", commanded.url.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = try Self.saved(in: commanded.url.path)
        #expect(expected.count == 4)
        #expect(try Self.saved(in: operated.url.path) == expected)
    }

    @Test("Cutting a countdown ends it early")
    func cutCountdown() async throws {
        let library = try TemporaryFolder()
        var configuration = SessionConfiguration()
        configuration.format = FormatRequest(width: 320, height: 240, frameRate: nil)
        configuration.preview = PreviewConfiguration(sink: "fakesink", showsText: true)
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        let booth = SessionOperator(camera: session, delivery: try PhotoDelivery(library: PhotoLibrary(folder: library.url.path), pictureCount: nil),
                                    device: configuration.device)
        var events = booth.events().makeAsyncIterator()
        let counting = Task { try await booth.perform(.countdown(seconds: 30)) }
        #expect(await events.next() == .countdown(secondsLeft: 30), "the countdown tells its seconds")
        #expect(session.previewOutput.overlayText == "30", "the countdown shows on the preview")
        _ = try await booth.perform(.cutShort)
        guard case .countdownEnded(early: true) = try await counting.value else {
            Issue.record("the countdown was not cut")
            return
        }
        #expect(session.previewOutput.overlayText == nil)
        _ = try await booth.perform(.stop)
    }
}
