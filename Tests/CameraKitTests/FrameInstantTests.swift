import CameraKit
import Foundation
import GStreamer
import ImageMetadata
import Testing
import TestSupport

@Suite("Photos dated by their frame's instant", .hangGuard(minutes: 3))
struct FrameInstantTests {
    @Test("A photo's date is when the camera took its frame, on the real-time clock, to the millisecond in its EXIF")
    func framesInstant() async throws {
        let session = CaptureSession(configuration: try CaptureSessionTests.configuration("320x240@30"))
        try await session.start()
        var settings = PhotoSettings()
        settings.prioritization = .speed
        _ = try await session.photoOutput.capture(settings)  // the encoders warm
        let delivered = UInt64(session.cameraFrameCount)
        let photo = try await session.photoOutput.capture(settings)
        let burst = try await session.photoOutput.captureBurst(count: 3, settings)
        await session.stop()

        // The frame held at the request was taken before it, and is the newest the photo branch
        // had: at most the few on their way to it behind the camera's newest.
        let age = photo.requestedAt.timeIntervalSince(photo.capturedAt)
        #expect(age >= -0.001, "the frame was taken \(-age) s after the request")
        #expect(try #require(photo.frameNumber) + 5 >= delivered, "frame \(photo.frameNumber ?? 0) taken when the camera had delivered \(delivered)")
        // Between frames, the instants differ as the frames' timestamps do: the same mapping for all.
        for (earlier, later) in zip(burst, burst.dropFirst()) {
            let instants = later.capturedAt.timeIntervalSince(earlier.capturedAt)
            let timestamps = try #require(later.frameTime).seconds - (try #require(earlier.frameTime).seconds)
            #expect(abs(instants - timestamps) < 0.002, "instants \(instants) s apart, timestamps \(timestamps) s")
        }
        // The EXIF says the same instant, to the millisecond, as exiftool reads it.
        let folder = try TemporaryFolder()
        let file = folder.path("photo.jpg")
        try Data(photo.fileData).write(to: URL(fileURLWithPath: file))
        let read = try await ChildProcess.run("exiftool", ["-s3", "-d", "%s", "-DateTimeOriginal", "-SubSecTimeOriginal", "-OffsetTimeOriginal", file])
        let fields = read.standardOutput.split(separator: "\n").map(String.init)
        #expect(fields.count == 3, "\(read.standardOutput)")
        let milliseconds = Int((photo.capturedAt.timeIntervalSince1970 * 1000).rounded(.down)) % 1000
        #expect(fields.dropFirst().first == String(format: "%03d", milliseconds), "SubSecTimeOriginal: \(fields)")
    }
}

@Suite("Photos of the frame nearest an instant", .hangGuard(minutes: 3))
struct SynchronizedCaptureTests {
    @Test("Two cameras asked for the same instant ahead of time take frames within half a frame interval of it")
    func nearestInstant() async throws {
        let sessions = try [CaptureSession(configuration: CaptureSessionTests.configuration("320x240@30")),
                            CaptureSession(configuration: CaptureSessionTests.configuration("320x240@30", device: .testCamera(pattern: "ball")))]
        for session in sessions { try await session.start() }
        let settings = { var settings = PhotoSettings(); settings.prioritization = .speed; return settings }()
        for session in sessions { _ = try await session.photoOutput.capture(settings) }  // the encoders warm
        var rounds = 0, late = 0
        while rounds < 3 {
            // An instant 4 s ahead. A machine so busy that a request came after it is refused
            // (timeout, as the last step below shows): that round was not asked in time, and
            // another is asked; 20 such rounds would be a hang.
            let instant = Date().addingTimeInterval(4)
            async let first = sessions[0].photoOutput.capture(settings, nearest: instant)
            async let second = sessions[1].photoOutput.capture(settings, nearest: instant)
            let photos: [Photo]
            do {
                photos = try await [first, second]
            } catch let error as CaptureError where error.code == .timeout && Date() > instant {
                late += 1
                try #require(late < 20, "asked too late 20 times: \(error)")
                continue
            }
            rounds += 1
            for photo in photos {
                let off = photo.capturedAt.timeIntervalSince(instant)
                #expect(abs(off) <= 0.5 / 30 + 0.002, "a frame \(off * 1000) ms from the instant")
            }
            #expect(abs(photos[0].capturedAt.timeIntervalSince(photos[1].capturedAt)) <= 1.0 / 30 + 0.002)
        }
        // An instant long past is refused, not taken late.
        await #expect(throws: CaptureError.self) {
            try await sessions[0].photoOutput.capture(settings, nearest: Date().addingTimeInterval(-1))
        }
        for session in sessions { await session.stop() }
    }
}
