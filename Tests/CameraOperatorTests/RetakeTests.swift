import CameraKit
import CameraOperator
import Foundation
import PhotoLibrary
import Synchronization
import Testing
import TestSupport

/// A booth's retake: the shot shown in its place dropped without a trace and taken again, on a
/// fake camera and a clock the test drives.
@Suite("A booth's retake, on a fake camera and a manual clock", .hangGuard(minutes: 3))
struct RetakeTests {
    typealias Operated = OperatorFlowTests.Operated

    /// Runs a booth of `plan`, answering its offers of a retake with `answer`; its outcome and the
    /// events told meanwhile.
    static func offering(_ plan: BoothPlan, on operated: Operated,
                         answer: @escaping @Sendable (Int, SessionOperator) async throws -> Void) async throws -> (Outcome, [OperatorEvent]) {
        try await booth(plan, on: operated) { event, operating in
            if case .retakeOffered(let shot) = event { try await answer(shot, operating) }
        }
    }

    /// Runs a booth of `plan`, giving each event to `answering` as it is told; its outcome and the
    /// events told meanwhile.
    static func booth(_ plan: BoothPlan, on operated: Operated,
                      answering: @escaping @Sendable (OperatorEvent, SessionOperator) async throws -> Void) async throws -> (Outcome, [OperatorEvent]) {
        let operating = operated.operating
        let stream = operating.events()
        let told = Task {
            var told: [OperatorEvent] = []
            for await event in stream {
                told.append(event)
                try? await answering(event, operating)
            }
            return told
        }
        let driving = operated.drivingTheClock()
        let outcome = try await operating.perform(.booth(plan))
        driving.cancel()
        await operating.endEvents()
        return (outcome, await told.value)
    }

    static func plan(shots: Int) -> BoothPlan {
        var plan = BoothPlan()
        (plan.shots, plan.countdown, plan.layout, plan.showShots, plan.showResult) = (shots, 1, .strip, 2, 0)
        return plan
    }

    static func shotNumbers(_ told: [OperatorEvent]) -> [Int] {
        told.compactMap { if case .shot(let number, _) = $0 { number } else { nil } }
    }

    @Test("A shot retaken while shown in its place is dropped without a trace and taken again; the picture is made of the shots kept")
    func retakeFirstShot() async throws {
        let operated = try Operated()
        let answers = Answers()
        let (outcome, told) = try await Self.offering(Self.plan(shots: 2), on: operated) { shot, operating in
            if shot == 1, answers.count == 0 { answers.add(try await operating.perform(.retake)) }
        }
        #expect(answers.retaking == [true], "\(answers.retaking)")
        guard case .boothTaken(let shots, let composed?) = outcome else {
            Issue.record("the booth did not compose its shots: \(outcome)")
            return
        }
        #expect(operated.camera.frameCount == 3, "the first shot taken twice, the second once")
        #expect(Self.shotNumbers(told) == [1, 1, 2], "\(told)")
        #expect(told.filter { if case .retakeOffered = $0 { true } else { false } }.count == 3, "each shot shown, the last too: \(told)")
        let saved = try operated.saved()
        #expect(saved.count == 3, "the two shots kept and their picture; nothing of the one retaken: \(saved.map(\.path))")
        let library = try PhotoLibrary(folder: operated.folder.url.path, forReading: true)
        let parts = try library.parts(of: try #require(composed.libraryPhoto?.id)).map(\.id).sorted()
        #expect(parts == shots.compactMap { $0.delivered?.libraryPhoto?.id }.sorted() && parts.count == 2, "\(parts)")
        #expect(try library.photos().first { $0.id == composed.libraryPhoto?.id }?.isComposed == true)
    }

    @Test("The last shot is shown before the result and can be taken again there")
    func retakeLastShot() async throws {
        let operated = try Operated()
        let answers = Answers()
        let (outcome, told) = try await Self.offering(Self.plan(shots: 1), on: operated) { _, operating in
            if answers.count == 0 { answers.add(try await operating.perform(.retake)) }
        }
        #expect(answers.retaking == [true])
        guard case .boothTaken(let shots, _?) = outcome else {
            Issue.record("the booth did not compose its shot: \(outcome)")
            return
        }
        #expect(shots.count == 1 && operated.camera.frameCount == 2 && Self.shotNumbers(told) == [1, 1], "\(told)")
        #expect(try operated.saved().count == 2, "the shot kept and its picture")
    }

    @Test("A retake with no shot shown, or in a booth without retakes, is answered false and changes nothing")
    func noRetake() async throws {
        let operated = try Operated()
        guard case .retaking(false) = try await operated.operating.perform(.retake) else {
            Issue.record("a retake with nothing shown was not refused")
            return
        }
        var plan = Self.plan(shots: 2)
        plan.retakes = false
        let answers = Answers()
        // While the first shot is shown in its place.
        let (outcome, events) = try await Self.booth(plan, on: operated) { event, operating in
            if event == .showing(.shots), answers.count == 0 { answers.add(try? await operating.perform(.retake)) }
        }
        #expect(answers.retaking == [false], "\(answers.retaking)")
        guard case .boothTaken(let shots, _?) = outcome else {
            Issue.record("the booth did not compose its shots: \(outcome)")
            return
        }
        #expect(shots.count == 2 && operated.camera.frameCount == 2 && Self.shotNumbers(events) == [1, 2])
        #expect(!events.contains { if case .retakeOffered = $0 { true } else { false } }, "\(events)")
    }

    @Test("A retake and the run's end together: the end wins, and the shot shown is kept")
    func retakeThenEnd() async throws {
        let operated = try Operated()
        let answers = Answers()
        let (outcome, told) = try await Self.offering(Self.plan(shots: 3), on: operated) { shot, operating in
            guard shot == 1, answers.count == 0 else { return }
            answers.add(try await operating.perform(.retake))
            _ = try await operating.perform(.endRun)
        }
        guard case .boothTaken(let shots, _?) = outcome else {
            Issue.record("the ended booth did not compose its shot: \(outcome)")
            return
        }
        #expect(shots.count == 1 && operated.camera.frameCount == 1 && Self.shotNumbers(told) == [1], "\(told)")
        #expect(try operated.saved().count == 2, "the shot shown and its picture")
    }
}

/// What the test's answers to a booth got, kept across the event reader's task.
private final class Answers: Sendable {
    private let outcomes = Mutex<[Outcome?]>([])

    var count: Int { outcomes.withLock { $0.count } }

    func add(_ outcome: Outcome?) {
        outcomes.withLock { $0.append(outcome) }
    }

    /// What each answer said of the retake: `true` retaking, `false` refused.
    var retaking: [Bool] {
        outcomes.withLock { $0.compactMap { if case .retaking(let retaking)? = $0 { retaking } else { nil } } }
    }
}
