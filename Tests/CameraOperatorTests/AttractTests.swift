import CameraKit
import CameraOperator
import Foundation
import PhotoLibrary
import Testing
import TestSupport

/// The attract screen between a booth's guests, on a fake camera and a clock the test moves on
/// one picture's time at a time.
@Suite("The attract screen between guests, on a fake camera and a manual clock", .hangGuard(minutes: 3))
struct AttractTests {
    typealias Operated = OperatorFlowTests.Operated

    /// A booth of one shot that waits on nothing (no countdown, no showing).
    static var quickBooth: BoothPlan {
        var plan = BoothPlan()
        (plan.shots, plan.countdown, plan.layout, plan.showShots, plan.showResult) = (1, 0, .strip, 0, 0)
        return plan
    }

    /// The booth album's composed pictures, newest first, as the library keeps them.
    static func composed(in operated: Operated) throws -> [[UInt8]] {
        let library = try PhotoLibrary(folder: operated.folder.url.path, forReading: true)
        return try library.photos().filter { $0.isComposed && $0.albums.contains("booth") }.map { try library.contents(of: $0) }
    }

    /// Runs the attract screen for `steps` pictures' times, noting at each what the preview shows
    /// over the camera (`nil`: the camera), with `meanwhile` done after the step it names; then cuts
    /// it short. What was shown, the outcome, and the events told.
    static func attracting(_ operated: Operated, _ plan: AttractPlan, steps: Int,
                           meanwhile: (Int, () async throws -> Void)? = nil) async throws -> ([[UInt8]?], Outcome, [OperatorEvent]) {
        let operating = operated.operating
        let told = OperatorFlowTests.events(of: operating) { _ in false }
        let running = Task { try await operating.perform(.attract(plan)) }
        var shown: [[UInt8]?] = []
        for step in 0..<steps {
            await operated.clock.sleepers()
            shown.append(await operating.shownPicture.map { $0.kind == .attract ? $0.jpeg : [] })
            if let meanwhile, meanwhile.0 == step { try await meanwhile.1() }
            operated.clock.advance(by: .seconds(plan.seconds))
        }
        await operated.clock.sleepers()
        #expect(try await operating.perform(.cutShort).isCut)
        let outcome = try await running.value
        await operating.endEvents()
        return (shown, outcome, await told.value)
    }

    @Test("The booth album's composed pictures show newest first, each for its time, then the camera, round after round under the line; the cut ends it")
    func picturesInTurn() async throws {
        let operated = try Operated()
        let operating = operated.operating
        for _ in 1...2 { _ = try await operating.perform(.booth(Self.quickBooth)) }
        // A picture composed into another album, and the booths' own shots, are not the booth's pictures.
        _ = try await operating.perform(.takePhoto(PhotoSettings()))
        _ = try await operating.perform(.compose(layout: .strip, quality: 90, albums: ["other"]))
        let pictures = try Self.composed(in: operated)
        try #require(pictures.count == 2)
        var plan = AttractPlan()
        (plan.line, plan.seconds) = ("Next guest, please", 4)
        let (shown, outcome, told) = try await Self.attracting(operated, plan, steps: 6)
        #expect(shown == [pictures[0], pictures[1], nil, pictures[0], pictures[1], nil], "\(shown.map { $0?.count })")
        guard case .attractEnded = outcome else {
            Issue.record("the attract screen ended with \(outcome)")
            return
        }
        #expect(told.first == .attracting(line: "Next guest, please"), "\(told)")
        // The four shown, and the fifth the cut ended.
        #expect(told.filter { $0 == .showing(.attract) }.count == 5, "\(told)")
        let captions = operated.camera.shown.filter { if case .caption = $0 { true } else { false } }
        #expect(captions == [.caption("Next guest, please"), .caption(nil)], "the line along the foot while it shows, then none: \(captions)")
        #expect(await operating.shownPicture == nil, "the camera again once it ended")
    }

    @Test("A picture composed while the attract screen shows joins its next round")
    func newPictureJoins() async throws {
        let operated = try Operated()
        let operating = operated.operating
        _ = try await operating.perform(.booth(Self.quickBooth))
        let plan = AttractPlan()
        let (shown, _, _) = try await Self.attracting(operated, plan, steps: 4, meanwhile: (0, {
            // A guest's booth holds the stage, so it waits; a picture made by other hands does not.
            await #expect(throws: OperatorError.self) { _ = try await operating.perform(.booth(Self.quickBooth)) }
            _ = try await operating.perform(.takePhoto(PhotoSettings()))
            _ = try await operating.perform(.compose(layout: .strip, quality: 90, albums: ["booth"]))
        }))
        let pictures = try Self.composed(in: operated)
        try #require(pictures.count == 2)
        #expect(shown == [pictures[1], nil, pictures[0], pictures[1]], "\(shown.map { $0?.count })")
    }

    @Test("With no picture yet the camera shows under the line, its time at a time, until the session stops")
    func nothingYet() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let running = Task { try await operating.perform(.attract(AttractPlan())) }
        for _ in 1...3 {
            await operated.clock.sleepers()
            #expect(await operating.shownPicture == nil)
            operated.clock.advance(by: .seconds(5))
        }
        await operated.clock.sleepers()
        _ = try await operating.perform(.stop)
        let outcome = try await running.value
        guard case .attractEnded = outcome else {
            Issue.record("the stop ended the attract screen with \(outcome)")
            return
        }
    }
}

private extension Outcome {
    var isCut: Bool {
        if case .cut(true) = self { true } else { false }
    }
}
