import CamctlTesting
import CameraKit
import CameraOperator
import Foundation
import ImageMetadata
import PhotoLibrary
import TestSupport
import Testing

/// The operator's flows against a camera made in memory and a clock the test drives: reviews,
/// bursts, countdowns, booths, switches and failures, proven by what they deliver, tell and show,
/// in no time of their own (a fraction of a second here; the limit only catches a hang, and counts
/// the wait for a thread while a full run starts every suite at once).
@Suite("The operator's flows, on a fake camera and a manual clock", .hangGuard(minutes: 3))
struct OperatorFlowTests {
    /// An operator over a fake camera, delivering into a library of its own.
    struct Operated {
        let camera = FakeCamera()
        let clock = ManualClock()
        let folder: TemporaryFolder
        let operating: SessionOperator

        init() throws {
            folder = try TemporaryFolder()
            let delivery = try PhotoDelivery(library: PhotoLibrary(folder: folder.url.path), pictureCount: nil)
            operating = SessionOperator(camera: camera, delivery: delivery, device: try DeviceDiscovery.device(named: "test"),
                                        albums: ["flows"], clock: clock)
        }

        /// The library's photos, oldest first.
        func saved() throws -> [LibraryPhoto] {
            try PhotoLibrary(folder: folder.url.path, forReading: true).photos().sorted { $0.id < $1.id }
        }

        /// Lets whatever waits on the clock go, a second at a time, until cancelled; with
        /// `untilReview`, only until a review shows its picture (the review shows it before its
        /// time-out waits), so the test answers the review before its time could run out.
        func drivingTheClock(untilReview: Bool = false) -> Task<Void, Never> {
            Task { [clock, operating] in
                while !Task.isCancelled {
                    await clock.sleepers()
                    if untilReview, await operating.shownPicture?.kind == .review { return }
                    clock.advance(by: .seconds(1))
                }
            }
        }
    }

    /// Events until (and with) the first that `last` accepts.
    static func events(of operating: SessionOperator, until last: @escaping @Sendable (OperatorEvent) -> Bool) -> Task<[OperatorEvent], Never> {
        let stream = operating.events()  // from now, not from when the task runs
        return Task {
            var told: [OperatorEvent] = []
            for await event in stream {
                told.append(event)
                if last(event) { break }
            }
            return told
        }
    }

    @Test("Every reader of the events is told every event from its subscription on; endEvents ends them all")
    func eventsForEveryReader() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let (first, second) = (operating.events(), operating.events())
        let driving = operated.drivingTheClock()
        _ = try await operating.perform(.countdown(seconds: 2))
        driving.cancel()
        await operating.endEvents()
        var (toldFirst, toldSecond): ([OperatorEvent], [OperatorEvent]) = ([], [])
        for await event in first { toldFirst.append(event) }
        for await event in second { toldSecond.append(event) }
        #expect(toldFirst == [.countdown(secondsLeft: 2), .countdown(secondsLeft: 1)] && toldSecond == toldFirst)
        for await event in operating.events() { Issue.record("a reader after the end was told \(event)") }
    }

    @Test("Held photos are written nowhere until the review keeps them: shown whole with the hint, then delivered in order")
    func reviewKeeps() async throws {
        let operated = try Operated()
        let operating = operated.operating
        _ = try await operating.perform(.holdForReview)
        _ = try await operating.perform(.takePhoto(PhotoSettings()))
        guard case .held(count: 2) = try await operating.perform(.takePhoto(PhotoSettings())) else {
            Issue.record("the photos were not held")
            return
        }
        #expect(try operated.saved().isEmpty, "nothing is written while held")
        let told = Self.events(of: operating) { if case .kept = $0 { true } else { false } }
        let reviewing = Task { try await operating.perform(.review(ReviewPlan(timeout: 60, unanswered: .discard, hint: "keep?"))) }
        await operated.clock.sleepers()
        #expect(operated.camera.shown.suffix(2) == [.whole, .caption("keep?")])
        guard case .decided(true) = try await operating.perform(.decide(.keep)),
              case .kept(let shots, composed: nil, answered: true) = try await reviewing.value else {
            Issue.record("the review did not keep the photos")
            return
        }
        #expect(shots.map { $0.photo.frameNumber } == [0, 1])
        #expect(try operated.saved().map(\.albums) == [["flows"], ["flows"]])
        let all = await told.value
        let photos = all.compactMap { if case .photo(let record) = $0 { record.id } else { nil } }
        #expect(photos == [1, 2], "each photo kept told as it is written, in order: \(all)")
        #expect(all.filter { if case .photo = $0 { false } else { true } } == [.showing(.review), .reviewing(count: 2, timeout: 60), .kept(count: 2, answered: true)],
                "the review told: \(all)")
        #expect(operated.camera.shown.suffix(2) == [.caption(nil), .corner(hasPhoto: true)], "the caption goes, the corner is back")
    }

    @Test("A review unanswered at its time-out takes the verdict asked for: discarded shots leave no file and nothing to compose")
    func reviewTimesOut() async throws {
        let operated = try Operated()
        let operating = operated.operating
        _ = try await operating.perform(.holdForReview)
        _ = try await operating.perform(.burst(count: 3, PhotoSettings()))
        let reviewing = Task { try await operating.perform(.review(ReviewPlan(timeout: 30, unanswered: .discard))) }
        await operated.clock.sleepers()
        operated.clock.advance(by: .seconds(30))
        guard case .discarded(count: 3, answered: false) = try await reviewing.value else {
            Issue.record("the review did not time out into a discard")
            return
        }
        #expect(try operated.saved().isEmpty)
        await #expect(throws: OperatorError.self) { try await operating.perform(.compose(layout: .strip, quality: 90, albums: [])) }
        await #expect(throws: OperatorError.self) { try await operating.perform(.review(ReviewPlan(timeout: nil, unanswered: .keep))) }
    }

    @Test("A verdict given before the review waits decides it at once")
    func earlyVerdict() async throws {
        let operated = try Operated()
        let operating = operated.operating
        _ = try await operating.perform(.holdForReview)
        _ = try await operating.perform(.takePhoto(PhotoSettings()))
        guard case .decided(true) = try await operating.perform(.decide(.keep)) else {
            Issue.record("the early verdict was refused")
            return
        }
        guard case .kept(let shots, _, answered: true) = try await operating.perform(.review(ReviewPlan(timeout: nil, unanswered: .discard))) else {
            Issue.record("the early verdict was not taken")
            return
        }
        #expect(shots.count == 1 && operated.clock.sleeperCount == 0)
        #expect(try operated.saved().count == 1)
    }

    @Test("A burst delivers every frame it took, each once, in order, into the library")
    func burst() async throws {
        let operated = try Operated()
        guard case .photos(let shots) = try await operated.operating.perform(.burst(count: 12, PhotoSettings())) else {
            Issue.record("the burst took no photos")
            return
        }
        #expect(shots.map { $0.photo.frameNumber } == (0..<12).map { UInt64($0) })
        let saved = try operated.saved().map(\.id)
        #expect(shots.compactMap { $0.delivered?.libraryPhoto?.id } == saved)
        #expect(operated.camera.shown.first == .shutter)
    }

    @Test("A countdown shows each second on the preview as the clock reaches it, and clears it; cut short, it ends at once")
    func countdown() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let driving = operated.drivingTheClock()
        guard case .countdownEnded(early: false) = try await operating.perform(.countdown(seconds: 3)) else {
            Issue.record("the countdown did not run out")
            return
        }
        driving.cancel()
        #expect(operated.camera.shown == [.text("3"), .text("2"), .text("1"), .text(nil)])

        let counting = Task { try await operating.perform(.countdown(seconds: 10)) }
        await operated.clock.sleepers()
        guard case .cut(ended: true) = try await operating.perform(.cutShort),
              case .countdownEnded(early: true) = try await counting.value else {
            Issue.record("the countdown was not cut")
            return
        }
        #expect(operated.camera.shown.last == .text(nil))
    }

    @Test("A booth counts down each shot, shows the shots in their places, composes them and shows the result", arguments: [false, true])
    func booth(reviews: Bool) async throws {
        let operated = try Operated()
        let operating = operated.operating
        var plan = BoothPlan()
        (plan.shots, plan.countdown, plan.layout, plan.showShots, plan.showResult) = (3, 3, .strip, 2, 5)
        plan.review = reviews ? ReviewPlan() : nil
        plan.albums = ["booth"]
        let reviewing = reviews ? Self.events(of: operating) { $0 == .reviewing(count: 4, timeout: ReviewPlan.defaultTimeout) } : nil
        let driving = operated.drivingTheClock(untilReview: reviews)
        let running = Task { try await operating.perform(.booth(plan)) }
        if let reviewing {
            _ = await reviewing.value
            _ = try await operating.perform(.decide(.keep))
        }
        let outcome = try await running.value
        driving.cancel()
        if reviews {
            guard case .kept(let shots, let composed?, answered: true) = outcome else {
                Issue.record("the booth's review did not keep its pictures: \(outcome)")
                return
            }
            #expect(shots.count == 3 && composed.item.isComposed)
        } else {
            guard case .boothTaken(let shots, let composed?) = outcome else {
                Issue.record("the booth did not compose its shots: \(outcome)")
                return
            }
            #expect(shots.count == 3 && composed.item.isComposed)
        }
        let saved = try operated.saved()
        #expect(saved.count == 4 && saved.last?.albums == ["booth"], "three shots and their strip")
        let texts = operated.camera.shown.compactMap { if case .text(let text?) = $0 { text } else { nil } }
        #expect(texts == Array(repeating: ["3", "2", "1"], count: 3).flatMap { $0 })
        #expect(operated.camera.frameCount == 3, "one frame a shot")
    }

    @Test("A booth's picture is of its own shots, whatever was taken before; its shots and its picture are in its album, the picture with a thumbnail")
    func boothOwnShots() async throws {
        let operated = try Operated()
        let operating = operated.operating
        for _ in 1...2 { _ = try await operating.perform(.takePhoto(PhotoSettings())) }  // shutter photos before the booth
        var plan = BoothPlan()
        (plan.shots, plan.countdown, plan.layout, plan.showShots, plan.showResult) = (2, 0, .strip, 0, 0)
        guard case .boothTaken(let shots, let composed?) = try await operating.perform(.booth(plan)) else {
            Issue.record("the booth did not compose its shots")
            return
        }
        // A strip of two 640x480 cells and their margins, not four.
        let margin = ShotComposition.cellWidth / 40
        #expect(shots.count == 2 && composed.item.width == 640 + 2 * margin && composed.item.height == 2 * 480 + 3 * margin,
                "\(composed.item.width)x\(composed.item.height)")
        let saved = try operated.saved()
        #expect(saved.count == 5)
        #expect(saved.prefix(2).allSatisfy { $0.albums == ["flows"] }, "the shutter photos stay out of the booth's album")
        #expect(saved.dropFirst(2).allSatisfy { $0.albums.contains("booth") }, "\(saved.map(\.albums))")
        let picture = try #require(saved.last)
        let thumbnail = try #require(picture.thumbnailPath.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }, "the composed picture has a thumbnail")
        let size = try #require(JPEGFile.dimensions(of: [UInt8](thumbnail)))
        #expect(max(size.width, size.height) == ShotComposition.thumbnailSide && size.height > size.width, "\(size)")
    }

    @Test("Ending a booth during a countdown composes the shots taken so far")
    func boothEnded() async throws {
        let operated = try Operated()
        let operating = operated.operating
        var plan = BoothPlan()
        (plan.shots, plan.countdown, plan.layout, plan.showShots, plan.showResult) = (4, 3, .strip, 0, 0)
        let told = Self.events(of: operating) { $0 == .shot(number: 2, of: 4) }
        let running = Task { try await operating.perform(.booth(plan)) }
        await operated.clock.sleepers()
        for _ in 1...3 {  // the first shot's countdown
            operated.clock.advance(by: .seconds(1))
            await operated.clock.sleepers()
        }
        _ = await told.value
        guard case .runEnded(true) = try await operating.perform(.endRun) else {
            Issue.record("the booth was not ended")
            return
        }
        guard case .boothTaken(let shots, let composed?) = try await running.value else {
            Issue.record("the ended booth did not compose its one shot")
            return
        }
        #expect(shots.count == 1 && composed.item.isComposed)
        #expect(operated.camera.frameCount == 1)
    }

    @Test("A camera that fails a capture fails the action with its error, and nothing is delivered")
    func captureFails() async throws {
        let operated = try Operated()
        operated.camera.failNextCapture(with: CaptureError(.interrupted, "the camera went away"))
        let failure = await #expect(throws: OperatorError.self) { try await operated.operating.perform(.takePhoto(PhotoSettings())) }
        guard case .capture(let error)? = failure else {
            Issue.record("not a capture failure: \(String(describing: failure))")
            return
        }
        #expect(error.code == .interrupted)
        #expect(try operated.saved().isEmpty)
        guard case .photos(let shots) = try await operated.operating.perform(.takePhoto(PhotoSettings())) else {
            Issue.record("the next photo was not taken")
            return
        }
        #expect(try shots.count == 1 && operated.saved().count == 1)
    }

    @Test("Switching cameras, changing the picture, pausing the preview and stopping reach the camera")
    func cameraChanges() async throws {
        let operated = try Operated()
        let operating = operated.operating
        let other = try DeviceDiscovery.device(named: "test:ball")
        guard case .switched(let now) = try await operating.perform(.switchCamera(to: other)) else {
            Issue.record("the camera was not switched")
            return
        }
        #expect(now.id == other.id && operated.camera.device?.id == other.id)
        var image = ImageSettings()
        image.zoom = 2
        _ = try await operating.perform(.changeImage(image))
        #expect(await operated.camera.image.zoom == 2)
        guard case .previewPaused(true) = try await operating.perform(.pausePreview),
              case .previewPaused(false) = try await operating.perform(.resumePreview),
              case .stopped = try await operating.perform(.stop) else {
            Issue.record("the preview was not paused and resumed, or the camera not stopped")
            return
        }
        #expect(operated.camera.shown == [.paused(true), .paused(false)] && operated.camera.isStopped)
    }
}
