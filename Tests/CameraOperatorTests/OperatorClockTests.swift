import CamctlTesting
import CameraKit
import CameraOperator
import Foundation
import TestSupport
import Testing

/// Countdowns, pictures shown for a time and reviews' time-outs run on the operator's clock: a
/// test's manual clock decides when their time has come, so nothing here depends on how fast the
/// machine is.
@Suite("The operator's time, driven by a manual clock", .hangGuard(minutes: 3))
struct OperatorClockTests {
    @Test("A countdown tells each whole second left as the clock reaches it, and ends when its time is up", arguments: [3.0, 2.5])
    func countdown(seconds: Double) async throws {
        let clock = ManualClock()
        let previewed = try await PreviewedCamera("test", clock: clock)
        let camera = previewed.camera
        var events = camera.events().makeAsyncIterator()
        let counting = Task { try await camera.perform(.countdown(seconds: seconds)) }
        #expect(await events.next() == .countdown(secondsLeft: 3))
        await clock.sleepers()
        // A fractional start waits its fraction first: 2.5 s shows 3 for half a second.
        let first = seconds - 2
        clock.advance(by: .seconds(first) - .milliseconds(1))
        #expect(clock.sleeperCount == 1, "a millisecond short of the next second, the countdown still waits")
        clock.advance(by: .milliseconds(1))
        #expect(await events.next() == .countdown(secondsLeft: 2))
        await clock.sleepers()
        clock.advance(by: .seconds(1))
        #expect(await events.next() == .countdown(secondsLeft: 1))
        await clock.sleepers()
        clock.advance(by: .seconds(1))
        guard case .countdownEnded(early: false) = try await counting.value else {
            Issue.record("the countdown did not end by itself")
            return
        }
        _ = try await camera.perform(.stop)
    }

    @Test("A review nobody answers ends at its time-out and not a moment before, with the verdict asked for")
    func reviewTimeOut() async throws {
        let clock = ManualClock()
        let previewed = try await PreviewedCamera("test:black", clock: clock)
        let camera = previewed.camera
        _ = try await camera.perform(.holdForReview)
        _ = try await camera.perform(.takePhoto(PhotoSettings()))
        let reviewing = Task { try await camera.perform(.review(ReviewPlan(timeout: 60, unanswered: .discard))) }
        await clock.sleepers()
        clock.advance(by: .seconds(60) - .milliseconds(1))
        #expect(clock.sleeperCount == 1, "the review still waits a millisecond before its time-out")
        clock.advance(by: .milliseconds(1))
        guard case .discarded(count: 1, answered: false) = try await reviewing.value else {
            Issue.record("the review did not time out into a discard")
            return
        }
        _ = try await camera.perform(.stop)
        #expect(try FileManager.default.contentsOfDirectory(atPath: previewed.library.url.path).filter { $0.hasSuffix(".jpg") }.isEmpty)
    }
}
