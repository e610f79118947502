import CamctlTesting
import CameraKit
import CameraOperator
import Foundation
import PhotoLibrary
import TestSupport
import Testing

/// Two hands at once (a kiosk's button, the page, a phone, a fleet's controller), each pair of
/// flows that share the stage, the camera, a composition or the review: on a fake camera that
/// holds a capture mid-way and a clock the test drives, so each pair meets at the moment it
/// would go wrong, on any machine.
@Suite("Flows from several hands at once, admitted one at a time", .hangGuard(minutes: 3))
struct ConcurrentFlowsTests {
    typealias Operated = OperatorFlowTests.Operated

    /// A booth of `shots` shots with a 3 s countdown, no showing, and `review` when given.
    static func boothPlan(shots: Int, review: ReviewPlan? = nil) -> BoothPlan {
        var plan = BoothPlan()
        (plan.shots, plan.countdown, plan.showShots, plan.showResult, plan.review) = (shots, 3, 0, 0, review)
        return plan
    }

    /// Whether `error` is the refusal of a flow because `holder` holds the stage.
    static func isBusy(_ error: any Error, by holder: Flow) -> Bool {
        if case .busy(let flow)? = error as? OperatorError { return flow == holder }
        return false
    }

    @Test("A second booth while one runs is refused at once, naming the booth; the first composes its own shots only")
    func boothAndBooth() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let first = Task { try await operating.perform(.booth(Self.boothPlan(shots: 2))) }
        await operated.clock.sleepers()  // the first booth counts down
        await #expect { try await operating.perform(.booth(Self.boothPlan(shots: 2))) } throws: { Self.isBusy($0, by: .booth) }
        let driving = operated.drivingTheClock()
        defer { driving.cancel() }
        guard case .boothTaken(let shots, let composed?) = try await first.value else {
            Issue.record("the first booth did not compose its shots")
            return
        }
        #expect(shots.count == 2)
        let parts = try PhotoLibrary(folder: operated.folder.url.path, forReading: true).parts(of: try #require(composed.libraryPhoto?.id))
        #expect(Set(parts.map(\.id)) == Set(shots.compactMap { $0.delivered?.libraryPhoto?.id }))
        // Once it has ended, the next booth is admitted.
        let second = Task { try await operating.perform(.booth(Self.boothPlan(shots: 1))) }
        guard case .boothTaken(let again, _?) = try await second.value else {
            Issue.record("a booth after the first was not admitted")
            return
        }
        #expect(again.count == 1)
    }

    @Test("A photo asked for during a booth's countdown is its asker's: delivered, not in the booth's album nor its picture")
    func boothAndPhoto() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let booth = Task { try await operating.perform(.booth(Self.boothPlan(shots: 2))) }
        await operated.clock.sleepers()
        guard case .photos(let outside) = try await operating.perform(.takePhoto(PhotoSettings())),
              let outsideID = outside.first?.delivered?.libraryPhoto?.id else {
            Issue.record("the photo from another hand was not delivered")
            return
        }
        let driving = operated.drivingTheClock()
        defer { driving.cancel() }
        guard case .boothTaken(let shots, let composed?) = try await booth.value else {
            Issue.record("the booth did not compose its shots")
            return
        }
        let library = try PhotoLibrary(folder: operated.folder.url.path, forReading: true)
        let parts = try library.parts(of: try #require(composed.libraryPhoto?.id)).map(\.id)
        #expect(shots.count == 2 && parts.count == 2 && !parts.contains(outsideID), "the picture is of the booth's two shots")
        #expect(try library.photo(id: outsideID).albums == ["flows"], "the other photo is not put into the booth's album")
        #expect(composed.libraryPhoto.map { $0.height > $0.width * 2 } == false, "a 2x2 grid of two shots, not three")
    }

    @Test("A photo another hand asks for during a booth that reviews is delivered, not held for the booth's review")
    func reviewingBoothAndPhoto() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let booth = Task { try await operating.perform(.booth(Self.boothPlan(shots: 1, review: ReviewPlan(timeout: 600)))) }
        await operated.clock.sleepers()
        guard case .photos(let outside) = try await operating.perform(.takePhoto(PhotoSettings())), outside.first?.delivered != nil else {
            Issue.record("the photo from another hand was held for the booth's review")
            return
        }
        let driving = operated.drivingTheClock(untilReview: true)
        _ = await driving.value
        guard case .decided(true) = try await operating.perform(.decide(.discard)),
              case .discarded(count: 2, answered: true) = try await booth.value else {
            Issue.record("the booth's review did not discard its shot and picture alone")
            return
        }
        #expect(try operated.saved().count == 1, "only the other hand's photo is kept")
    }

    @Test("Two compositions at once: one composes the shots, the other finds none; nothing crashes")
    func composeAndCompose() async throws {
        let operated = try Operated()
        let operating = operated.operating
        for _ in 0..<2 { _ = try await operating.perform(.takePhoto(PhotoSettings())) }
        let results = await withTaskGroup(of: Result<Outcome, OperatorError>.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    do throws(OperatorError) {
                        return .success(try await operating.perform(.compose(layout: .strip, quality: 80, albums: [])))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let composed = results.filter { if case .success(.composed) = $0 { true } else { false } }
        let refused = results.filter { if case .failure(.nothingToCompose) = $0 { true } else { false } }
        #expect(composed.count == 1 && refused.count == 1, "\(results)")
    }

    @Test("A second review while one waits is refused at once; the first is answered")
    func reviewAndReview() async throws {
        let operated = try Operated()
        let operating = operated.operating
        _ = try await operating.perform(.holdForReview)
        _ = try await operating.perform(.takePhoto(PhotoSettings()))
        let first = Task { try await operating.perform(.review(ReviewPlan(timeout: nil))) }
        _ = await until { await operating.shownPicture?.kind == .review }
        await #expect { try await operating.perform(.review(ReviewPlan(timeout: nil))) } throws: { Self.isBusy($0, by: .review) }
        guard case .decided(true) = try await operating.perform(.decide(.keep)),
              case .kept(let shots, nil, answered: true) = try await first.value else {
            Issue.record("the first review was not answered")
            return
        }
        #expect(shots.count == 1)
    }

    @Test("A capture run, a countdown or a showing while a booth runs is refused; answers to the booth are taken")
    func stageWhileBooth() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let booth = Task { try await operating.perform(.booth(Self.boothPlan(shots: 2))) }
        await operated.clock.sleepers()
        var plan = CapturePlan()
        plan.countdown = 3
        for action in [Action.capture(plan), .countdown(seconds: 3), .showResult(seconds: 1), .review(ReviewPlan())] {
            await #expect { try await operating.perform(action) } throws: { Self.isBusy($0, by: .booth) }
        }
        guard case .runEnded(true) = try await operating.perform(.endRun) else {
            Issue.record("end_run did not reach the booth")
            return
        }
        guard case .boothTaken(let shots, nil) = try await booth.value else {
            Issue.record("the booth ended during its first countdown did not end without shots")
            return
        }
        #expect(shots.isEmpty)
    }

    @Test("A camera switch asked for while a booth's shot is in the camera waits for the shot, then switches")
    func boothAndSwitch() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let next = try DeviceDiscovery.device(named: "test:ball")
        operated.camera.hold()
        let booth = Task { try await operating.perform(.booth(Self.boothPlan(shots: 1))) }
        let driving = operated.drivingTheClock()
        defer { driving.cancel() }
        _ = await until { operated.camera.heldCount == 1 }  // the shot is in the camera
        let switching = Task { try await operating.perform(.switchCamera(to: next)) }
        _ = await until { operating.gate.waitingCount(for: .camera) == 1 }
        #expect(operated.camera.device == nil, "the switch waits for the shot")
        operated.camera.release()
        guard case .boothTaken(let shots, _) = try await booth.value, case .switched = try await switching.value else {
            Issue.record("the booth or the switch did not end")
            return
        }
        #expect(shots.first?.photo.deviceName == FakeCamera().name, "the shot is of the camera it began on")
        #expect(operated.camera.device?.name == next.name)
    }

    @Test("Two picture changes at once each keep their own change: a zoom and a filter asked together")
    func imageAndImage() async throws {
        let operated = try Operated()
        let operating = operated.operating
        operated.camera.hold()
        let zooming = Task { try await operating.perform(.adjustImage { image in image.zoomed(in: true) }) }
        _ = await until { operated.camera.heldCount == 1 }
        let filtering = Task { try await operating.perform(.adjustImage { image in image.withNextFilter() }) }
        _ = await until { operating.gate.waitingCount(for: .camera) == 1 }
        operated.camera.release()
        _ = try await (zooming.value, filtering.value)
        let image = await operated.camera.image
        #expect(image.zoom > 1 && !image.filters.isEmpty, "both changes are in force: zoom \(image.zoom), filters \(image.filters)")
    }

    @Test("A verdict that comes after a run's review was answered is not kept for its next photo's review")
    func verdictAfterReview() async throws {
        let operated = try Operated()
        let operating = operated.operating
        var plan = CapturePlan()
        (plan.count, plan.review) = (2, ReviewPlan(timeout: 600))
        let capturing = Task { try await operating.perform(.capture(plan)) }
        _ = await until { await operating.shownPicture?.kind == .review }
        operated.camera.hold()  // the second photo will wait in the camera
        guard case .decided(true) = try await operating.perform(.decide(.keep)) else {
            Issue.record("the first review was not answered")
            return
        }
        _ = await until { operated.camera.heldCount == 1 }
        // A second hand's discard, late for the first review: nothing is held, no review is about to show.
        guard case .decided(false) = try await operating.perform(.decide(.discard)) else {
            Issue.record("a late verdict was kept for the next photo's review")
            return
        }
        operated.camera.release()
        _ = await until { await operating.shownPicture?.kind == .review && operated.camera.frameCount == 2 }
        _ = try await operating.perform(.decide(.keep))
        guard case .photos(let kept) = try await capturing.value else {
            Issue.record("the run did not end with its photos")
            return
        }
        #expect(kept.count == 2, "both photos kept: \(kept.count)")
    }

    @Test("A photo whose asker goes away while it waits its turn is never taken; the one in the camera is")
    func photoGivenUp() async throws {
        let operated = try Operated()
        let operating = operated.operating
        operated.camera.hold()
        let first = Task { try await operating.perform(.takePhoto(PhotoSettings())) }
        _ = await until { operated.camera.heldCount == 1 }
        let second = Task { try await operating.perform(.takePhoto(PhotoSettings())) }
        _ = await until { operating.gate.waitingCount(for: .camera) == 1 }
        second.cancel()
        await #expect { try await second.value } throws: { error in
            if case .cancelled? = error as? OperatorError { true } else { false }
        }
        #expect(operating.gate.waitingCount(for: .camera) == 0)
        operated.camera.release()
        guard case .photos(let shots) = try await first.value else {
            Issue.record("the photo in the camera was not taken")
            return
        }
        #expect(shots.count == 1 && operated.camera.frameCount == 1, "one photo, one frame")
        #expect(try operated.saved().count == 1)
    }

    @Test("Photos asked for at once wait their turn at the camera, each of a newer frame, all delivered")
    func photoAndPhoto() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
            for _ in 0..<8 { group.addTask { try await operating.perform(.takePhoto(PhotoSettings())) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let frames = outcomes.flatMap { outcome -> [UInt64] in
            guard case .photos(let shots) = outcome else { return [] }
            return shots.compactMap(\.photo.frameNumber)
        }
        #expect(frames.sorted() == Array(0..<8), "\(frames)")
        #expect(try operated.saved().count == 8)
    }
}
