@testable import CameraKit
import GStreamer
import ImageMetadata
import Synchronization
import Testing
import TestSupport

/// The frames a receiver got.
private final class Received: Sendable {
    let frames = Mutex<[LiveJPEGOutput.Frame]>([])
}

@Suite("The live picture as JPEG frames", .hangGuard(minutes: 2))
struct LiveJPEGTests {
    /// A 640x480@30 test camera (MJPEG when asked) with live JPEG frames, watched until 15 have come.
    private func watch(mjpeg: Bool, filter: ImageFilter? = nil) async throws -> (frames: [LiveJPEGOutput.Frame], output: LiveJPEGOutput) {
        var configuration = try CaptureSessionTests.configuration("640x480@30")
        if mjpeg { configuration.format.mediaType = "image/jpeg" }
        if let filter { configuration.image.filters = [filter] }
        configuration.liveJPEG = LiveJPEGConfiguration()
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        let output = session.liveJPEGOutput
        // Frames pass while nobody watches, and none is made into a live JPEG frame.
        #expect(await until { session.cameraFrameCount >= 10 }, "the camera's frames come")
        #expect(output.encodedFrameCount == 0 && output.passedThroughFrameCount == 0, "nothing is made while nobody watches")
        let received = Received()
        let receiver = output.addReceiver { frame in received.frames.withLock { $0.append(frame) } }
        #expect(await until { received.frames.withLock { $0.count } >= 15 }, "15 frames reach the receiver")
        receiver.cancel()
        await session.stop()
        return (received.frames.withLock { $0 }, output)
    }

    @Test("An MJPEG camera's own frames pass on as they are when they fit: no decode and second encode")
    func mjpegPassesThrough() async throws {
        let (frames, output) = try await watch(mjpeg: true)
        #expect(output.encodedFrameCount == 0)
        #expect(output.passedThroughFrameCount == frames.count)
        let size = try #require(frames.first.flatMap { JPEGFile.dimensions(of: $0.jpeg) })
        #expect(size.width == 640 && size.height == 480)
        #expect(frames.allSatisfy { $0.capturedAt != nil })
    }

    @Test("A raw camera's frames, and an MJPEG camera's under a filter, are encoded once each")
    func encodedOtherwise() async throws {
        for (mjpeg, filter) in [(false, nil), (true, ImageFilter.mono)] as [(Bool, ImageFilter?)] {
            let (frames, output) = try await watch(mjpeg: mjpeg, filter: filter)
            #expect(output.passedThroughFrameCount == 0)
            #expect(output.encodedFrameCount >= frames.count, "mjpeg \(mjpeg)")
        }
    }

    @Test("What receivers make of a frame is made once for all of them, each kind apart, and anew for the next frame")
    func madeOncePerFrame() {
        let made = Atomic<Int>(0)
        let part = { (frame: LiveJPEGOutput.Frame) in
            frame.shared("part") {
                made.add(1, ordering: .relaxed)
                return frame.jpeg + [0x0D, 0x0A]
            }
        }
        let first = LiveJPEGOutput.Frame(jpeg: [0xFF, 0xD8, 1], presentationTime: nil, capturedAt: nil)
        let viewers = (0..<5).map { _ in part(first) }
        #expect(viewers.allSatisfy { $0 == [0xFF, 0xD8, 1, 0x0D, 0x0A] })
        #expect(made.load(ordering: .relaxed) == 1)
        #expect(first.shared("other") { [9] } == [9])
        let second = LiveJPEGOutput.Frame(jpeg: [0xFF, 0xD8, 2], presentationTime: nil, capturedAt: nil)
        #expect(part(second) == [0xFF, 0xD8, 2, 0x0D, 0x0A])
        #expect(made.load(ordering: .relaxed) == 2)
    }
}
