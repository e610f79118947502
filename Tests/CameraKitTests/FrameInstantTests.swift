@testable import CameraKit
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
        // The frame the photo branch holds just before the request: the photo's can be no older.
        let heldBefore = try #require(try session.photoOutput.feed.latest()?.buffer?.offset, "the branch holds a frame")
        let photo = try await session.photoOutput.capture(settings)
        let burst = try await session.photoOutput.captureBurst(count: 3, settings)
        await session.stop()

        // The photo is of the frame the photo branch held at the request: taken before the request
        // (on the pipeline's clock, and on the real-time clock as the photo is dated), and no older
        // than the one it held just before it. Frames are told by their numbers, not by how late.
        let (asked, taken) = (try #require(photo.requestTime), try #require(photo.frameTime))
        #expect(taken <= asked, "the frame of \(taken.seconds) s was taken after the request at \(asked.seconds) s")
        let age = photo.requestedAt.timeIntervalSince(photo.capturedAt)
        #expect(age >= -0.001, "the frame was taken \(-age) s after the request")
        #expect(try #require(photo.frameNumber) >= heldBefore, "frame \(photo.frameNumber ?? 0) taken where frame \(heldBefore) was held before the request")
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
    /// The frame number nearest `instant` on the grid of `photo`'s camera (frame n at n/30 s past its
    /// first, on the pipeline's clock), the instant placed on it by the photo's own dating (its
    /// instant less its frame's time), and whether that place is within the real-time clock's
    /// measure of a tie between two frames (the measure the frame was chosen by may have been
    /// renewed by the time the photo was dated: then either frame is the nearest).
    static func nearestFrame(to instant: Date, by photo: Photo, rate: Double = 30) throws -> (number: Double, nearTie: Bool) {
        let number = Double(try #require(photo.frameNumber))
        let place = number + instant.timeIntervalSince(photo.capturedAt) * rate
        let nearTie = abs(place - place.rounded(.down) - 0.5) / rate <= FrameFeed.closeMeasure
        return (place.rounded(), nearTie)
    }

    @Test("Two cameras asked for the same instant ahead of time each take their frame nearest it")
    func nearestInstant() async throws {
        let sessions = try [CaptureSession(configuration: CaptureSessionTests.configuration("320x240@30")),
                            CaptureSession(configuration: CaptureSessionTests.configuration("320x240@30", device: .testCamera(pattern: "ball")))]
        for session in sessions { try await session.start() }
        let settings = { var settings = PhotoSettings(); settings.prioritization = .speed; return settings }()
        for session in sessions { _ = try await session.photoOutput.capture(settings) }  // the encoders warm
        // Each camera's frames are a grid: frame n's time on its pipeline's clock is its first
        // frame's plus n/30 s, the same first for every photo of the camera. So frame n's neighbours
        // are a frame interval before and after it, and frame numbers tell which is nearest.
        var firstFrameTimes: [[Double]] = [[], []]
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
            // Each camera's photo is of its frame nearest the instant (so the two are at most a
            // frame interval apart, however busy the machine: which frame, not how soon).
            for (camera, photo) in photos.enumerated() {
                let (number, time) = (try #require(photo.frameNumber), try #require(photo.frameTime))
                firstFrameTimes[camera].append(time.seconds - Double(number) / 30)
                let nearest = try Self.nearestFrame(to: instant, by: photo)
                #expect(Double(number) == nearest.number || (nearest.nearTie && abs(Double(number) - nearest.number) == 1),
                        "camera \(camera) took frame \(number) where frame \(Int(nearest.number)) is nearest the instant")
            }
        }
        for times in firstFrameTimes {
            #expect(times.allSatisfy { abs($0 - times[0]) < 1e-6 }, "frames on one grid: first frame at \(times) s")
        }
        // An instant long past is refused, not taken late.
        await #expect(throws: CaptureError.self) {
            try await sessions[0].photoOutput.capture(settings, nearest: Date().addingTimeInterval(-1))
        }
        for session in sessions { await session.stop() }
    }
}
