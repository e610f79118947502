import CameraKit
import CameraOperator
import Glibc
import Testing
import TestSupport

/// A capture plan run by the operator: the countdowns, intervals and reviews every front end's
/// capture shares, on a fake camera and a clock the test drives.
@Suite("A capture plan, on a fake camera and a manual clock", .hangGuard(minutes: 3))
struct CapturePlanTests {
    typealias Operated = OperatorFlowTests.Operated

    @Test("Each photo after its countdown, each started an interval after the one before")
    func countdownsAndIntervals() async throws {
        let operated = try Operated()
        let (clock, camera, operating) = (operated.clock, operated.camera, operated.operating)
        var plan = CapturePlan()
        (plan.count, plan.countdown, plan.interval) = (3, 2, 10)
        let running = Task { [plan] in try await operating.perform(.capture(plan)) }
        for photo in 1...3 {
            for _ in 1...2 {  // the countdown's two seconds
                await clock.sleepers()
                #expect(camera.frameCount == UInt64(photo - 1), "no photo before its countdown ends")
                clock.advance(by: .seconds(1))
            }
            guard photo < 3 else { break }
            // Ten seconds from this photo's start: eight after it was taken.
            await clock.sleepers()
            #expect(camera.frameCount == UInt64(photo))
            clock.advance(by: .seconds(7))
            #expect(clock.sleeperCount == 1 && camera.frameCount == UInt64(photo), "the interval still runs")
            clock.advance(by: .seconds(1))
        }
        guard case .photos(let shots) = try await running.value else {
            Issue.record("the capture did not answer with its photos")
            return
        }
        #expect(shots.count == 3 && clock.now.offset == .seconds(22), "the third photo 20 s after the first started, after its countdown")
        #expect(try operated.saved().count == 3)
    }

    @Test("The shutter during an interval takes the next photo at once; ending the run keeps the photos taken")
    func cutShortAndEnded() async throws {
        let operated = try Operated()
        let (clock, camera, operating) = (operated.clock, operated.camera, operated.operating)
        var plan = CapturePlan()
        (plan.count, plan.interval) = (5, 60)
        let running = Task { [plan] in try await operating.perform(.capture(plan)) }
        #expect(await until { camera.frameCount == 1 && clock.sleeperCount == 1 }, "the first photo, then the interval")
        guard case .cut(ended: true) = try await operating.perform(.cutShort) else {
            Issue.record("the interval was not cut short")
            return
        }
        #expect(await until { camera.frameCount == 2 && clock.sleeperCount == 1 }, "the second photo at once")
        guard case .runEnded(true) = try await operating.perform(.endRun) else {
            Issue.record("the capture was not ended")
            return
        }
        guard case .photos(let shots) = try await running.value else {
            Issue.record("the capture did not answer with its photos")
            return
        }
        #expect(shots.count == 2 && camera.frameCount == 2 && clock.now.offset == .zero)
    }

    @Test("Each photo of a reviewed plan waits for its own review: one discarded, one kept when its time runs out")
    func eachReviewed() async throws {
        let operated = try Operated()
        let (clock, operating) = (operated.clock, operated.operating)
        var plan = CapturePlan()
        (plan.count, plan.review) = (2, ReviewPlan(timeout: 30))
        let reviewed = OperatorFlowTests.events(of: operating) { if case .kept = $0 { true } else { false } }
        let running = Task { [plan] in try await operating.perform(.capture(plan)) }
        await clock.sleepers()  // the first review's time-out
        guard case .decided(true) = try await operating.perform(.decide(.discard)) else {
            Issue.record("the first review was not answered")
            return
        }
        #expect(await until { clock.sleeperCount == 1 && operated.camera.frameCount == 2 }, "the second photo under review")
        clock.advance(by: .seconds(30))
        guard case .photos(let shots) = try await running.value else {
            Issue.record("the capture did not answer with the photos kept")
            return
        }
        #expect(shots.map(\.photo.frameNumber) == [1])
        #expect(try operated.saved().count == 1)
        let all = await reviewed.value
        #expect(all.filter { if case .photo = $0 { true } else { false } }.count == 1, "the photo kept is told, the one discarded is not: \(all)")
        let told = all.filter {
            switch $0 {
            case .reviewing, .showing, .photo: false
            default: true
            }
        }
        #expect(told == [.shot(number: 1, of: 2), .discarded(count: 1, answered: true), .cleared, .shot(number: 2, of: 2),
                         .kept(count: 1, answered: false)], "\(told)")
    }
}

/// Delivery's waits (a library another process holds busy) hold back nothing else.
@Suite("Delivery off the operator", .startsPrograms, .enabled(if: ChildProcess.isInstalled("sqlite3"), "needs sqlite3 to hold the library"))
struct DeliveryLaneTests {
    @Test("A photo waiting for a library another process writes to holds back neither the operator nor its countdown")
    func busyLibraryBlocksNothing() async throws {
        let operated = try OperatorFlowTests.Operated()
        let (clock, operating) = (operated.clock, operated.operating)
        // Another writer holds the library's index until told to commit.
        let writer = try ChildProcess.Running("/usr/bin/sqlite3", [operated.folder.path("library.sqlite")], writingInput: true)
        defer { writer.send(SIGKILL) }
        writer.write("BEGIN IMMEDIATE;\nSELECT 'held';\n")
        #expect(await writer.output(containing: "held"), "\(writer.errorsSoFar)")
        let taking = Task { try await operating.perform(.takePhoto(PhotoSettings())) }
        // Shown in the preview's corner, the photo is handed to its delivery at once, which waits for the library.
        #expect(await until { operated.camera.shown.contains(.corner(hasPhoto: true)) }, "the photo is taken")
        // The operator counts down meanwhile, its actor free while the delivery waits.
        let counting = Task { try await operating.perform(.countdown(seconds: 2)) }
        for _ in 1...2 {
            await clock.sleepers()
            clock.advance(by: .seconds(1))
        }
        guard case .countdownEnded(early: false) = try await counting.value else {
            Issue.record("the countdown did not run while the photo waited")
            return
        }
        #expect(try operated.saved().isEmpty, "the photo still waits for the library")
        writer.write("COMMIT;\n.quit\n")
        guard case .photos(let shots) = try await taking.value else {
            Issue.record("the photo was not delivered once the library was free")
            return
        }
        #expect(shots.count == 1 && shots[0].delivered?.libraryPhoto != nil)
        #expect(try operated.saved().count == 1)
    }
}
