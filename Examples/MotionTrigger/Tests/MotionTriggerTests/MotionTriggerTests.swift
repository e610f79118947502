import CamctlTesting
import CameraKit
import CameraOperator
import Foundation
import GStreamer
import JSON
import MotionTrigger
import PhotoLibrary
import Synchronization
import Testing

/// The motion detector and its trigger, driven with frames the test makes and camctl's camera
/// in memory (`CamctlTesting`'s `FakeCamera`): no pipeline, no real time.
@Suite("Motion takes a photo")
struct MotionTriggerTests {
    /// A frame of 64x48 grey levels, all `level`.
    static func frame(_ level: UInt8) -> [UInt8] {
        [UInt8](repeating: level, count: MotionDetector.width * MotionDetector.height)
    }

    @Test("The score is 0 for the same frame, 1 from black to white, and between for part of it")
    func score() {
        let (black, white) = (Self.frame(0), Self.frame(255))
        var half = black
        for index in 0..<half.count / 2 { half[index] = 255 }
        func score(_ a: [UInt8], _ b: [UInt8]) -> Double {
            a.withUnsafeBytes { a in b.withUnsafeBytes { b in MotionScore.between(a, b, width: 64, height: 48, stride: 64) } }
        }
        #expect(score(black, black) == 0)
        #expect(score(black, white) == 1)
        #expect(score(black, half) == 0.5)
        #expect(score(black, [1, 2, 3]) == 0, "a frame smaller than its size says is no motion")
    }

    @Test("A frame that moves past the threshold is told once, then the detector keeps quiet for its frames; a new camera starts it over")
    func detector() {
        let told = Mutex<[Double]>([])
        let detector = MotionDetector(threshold: 0.2, quietFrames: 2) { score in told.withLock { $0.append(score) } }
        func feed(_ level: UInt8) { Self.frame(level).withUnsafeBytes { detector.feed($0, stride: 64) } }
        feed(0)
        feed(10)  // 0.04: too little
        feed(0)  // too little again
        feed(255)  // moved: told
        feed(0)  // quiet
        feed(255)  // quiet
        feed(0)  // moved again: told
        detector.detach()  // as a camera switched to or a stop: the next frame is compared with nothing
        feed(255)
        #expect(told.withLock { $0 }.count == 2, "\(told.withLock { $0 })")
        #expect(told.withLock { $0 }.allSatisfy { $0 == 1 })
    }

    @Test("Motion takes a photo through the operator, told first as a motion event")
    func trigger() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("motion-trigger-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = try PhotoLibrary(folder: folder)
        let operating = SessionOperator(camera: FakeCamera(), delivery: try PhotoDelivery(library: library, pictureCount: nil),
                                        device: .testCamera(), clock: ManualClock())
        let events = operating.events()
        let outcome = try await MotionTrigger(sessionOperator: operating).fire(score: 0.3)
        guard case .photos(let shots) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(shots.count == 1 && shots.first?.delivered?.libraryPhoto != nil)
        for await event in events {
            #expect(event == .custom(name: "motion", fields: ["score": .number(0.3)]))
            break
        }
        #expect(try PhotoLibrary(folder: folder, forReading: true).photos().count == 1)
    }

    @Test("Added to a session of camctl's test camera, whose ball moves every frame, the detector sees the motion on its own branch")
    func inAPipeline() async throws {
        var configuration = SessionConfiguration()
        configuration.device = try DeviceDiscovery.device(named: "test:ball")
        configuration.format = FormatRequest(width: 320, height: 240, frameRate: Fraction(30))
        let session = CaptureSession(configuration: configuration)
        let seen = Atomic<Int>(0)
        session.add(MotionDetector(threshold: 0.0005, quietFrames: 0) { _ in seen.add(1, ordering: .relaxed) })
        try await session.start()
        #expect(try await session.pipelineDescription().contains("appsink name=motion_frames"))
        // A minute only catches a hang: the ball moves in every frame.
        let deadline = ContinuousClock.now + .seconds(60)
        while seen.load(ordering: .relaxed) < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        await session.stop()
        #expect(seen.load(ordering: .relaxed) >= 3)
    }
}
