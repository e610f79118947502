import CameraKit
import GStreamer
import Testing
import TestSupport

@Suite("The preview while the camera is switched", .hangGuard(minutes: 2))
struct SwitchStillTests {
    /// What a 640x480 grey frame shows: the picture camera's (white on the left, black on the
    /// right), that picture mirrored, or black.
    enum Picture: Equatable {
        case halves, mirroredHalves, black, other
    }

    /// A still picture, white on its left half and black on its right, as a PNG to use as a camera.
    static func halves(_ path: String) async throws {
        let made = try await ChildProcess.run("gst-launch-1.0", ["-q", "compositor", "name=mix", "sink_1::xpos=320", "!",
                                                           "video/x-raw,width=640,height=480", "!", "pngenc", "!", "filesink", "location=\(path)",
                                                           "videotestsrc", "pattern=white", "num-buffers=1", "!", "video/x-raw,width=320,height=480", "!", "mix.",
                                                           "videotestsrc", "pattern=black", "num-buffers=1", "!", "video/x-raw,width=320,height=480", "!", "mix."])
        guard made.status == 0 else { throw ChildProcess.Failure(message: made.standardError) }
    }

    static func picture(in frame: [UInt8]) -> Picture {
        func mean(_ columns: Range<Int>) -> Int {
            var total = 0
            for row in stride(from: 0, to: 240, by: 4) {
                for column in columns { total += Int(frame[row * 640 + column]) }
            }
            return total / (60 * columns.count)
        }
        let (left, right) = (mean(0..<120), mean(520..<640))
        if left < 30, right < 30 { return .black }
        if left > 200, right < 30 { return .halves }
        if right > 200, left < 30 { return .mirroredHalves }
        return .other
    }

    @Test("The old camera's last frame, mirrored, stays on the preview until the new camera's first kept frame")
    func mirroredStill() async throws {
        let frames = try PreviewFrames(width: 640, height: 480, keeping: 0)
        var configuration = SessionConfiguration()
        let folder = try TemporaryFolder()
        try await Self.halves(folder.path("halves.png"))
        configuration.device = try DeviceDiscovery.device(named: "file:\(folder.path("halves.png"))")
        configuration.format = FormatRequest(width: 640, height: 480, frameRate: Fraction(15))
        configuration.framesDroppedAfterStart = 6  // as a webcam's
        configuration.preview = PreviewConfiguration(sink: frames.sink, maximumWidth: 640, maximumHeight: 480, showsLastPhoto: true)
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        // Switched once the first camera is on the preview; stopped once the new one has shown a few frames.
        func shown(_ picture: Picture) -> Int { ((try? frames.all()) ?? []).map(Self.picture).filter { $0 == picture }.count }
        #expect(await until(every: .milliseconds(250)) { shown(.halves) > 0 }, "the first camera is shown")
        try await session.switchDevice(to: try DeviceDiscovery.device(named: "test:black"))
        #expect(await until(every: .milliseconds(250)) { shown(.black) >= 10 }, "the new camera is shown")
        await session.stop()

        let pictures = try frames.all().map(Self.picture)
        let firstStill = try #require(pictures.firstIndex(of: .mirroredHalves), "the mirrored still is shown: \(pictures)")
        let firstBlack = try #require(pictures.firstIndex(of: .black), "the new camera is shown: \(pictures)")
        #expect(firstStill < firstBlack)
        #expect(!pictures[firstStill...].contains(.halves), "the old camera's live picture never comes back: \(pictures)")
        #expect(!pictures[firstBlack...].contains(.mirroredHalves), "the still goes at the new camera's first frame: \(pictures)")
        #expect(pictures.filter { $0 == .black }.count >= 10)
    }
}
