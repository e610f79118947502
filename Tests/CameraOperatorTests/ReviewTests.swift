import CamctlTesting
import CameraKit
import CameraOperator
import Foundation
import ImageMetadata
import PhotoLibrary
import TestSupport
import Testing

@Suite("Reviewing held pictures", .hangGuard(minutes: 2))
struct ReviewTests {
    /// The photo files in the library's folder.
    private func photoFiles(_ previewed: PreviewedCamera) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: previewed.library.url.path).filter { $0.hasSuffix(".jpg") }
    }

    @Test("A held photo is shown whole while it waits; keep delivers it, and a verdict given early is taken")
    func keep() async throws {
        let previewed = try await PreviewedCamera("test:white")
        let camera = previewed.camera
        _ = try await camera.perform(.holdForReview)
        guard case .held(count: 1) = try await camera.perform(.takePhoto(PhotoSettings())) else {
            Issue.record("the photo was not held")
            return
        }
        #expect(try photoFiles(previewed).isEmpty, "nothing is written while held")
        let reviewing = Task { try await camera.perform(.review(ReviewPlan(timeout: nil, unanswered: .discard, hint: "keep?"))) }
        // The white photo over the whole preview (inside its margin): far larger than the corner.
        let shown = try await previewed.frames.waitForBrightArea { rows, columns in rows.count > 400 && columns.count > 560 }
        #expect(shown != nil)
        guard case .decided(true) = try await camera.perform(.decide(.keep)),
              case .kept(let shots, nil, answered: true) = try await reviewing.value else {
            Issue.record("the review did not keep the photo")
            return
        }
        #expect(shots.count == 1 && shots[0].delivered?.libraryPhoto != nil)
        #expect(try photoFiles(previewed).count == 1)

        // A verdict given after the shot, before the review waits, decides it at once.
        _ = try await camera.perform(.holdForReview)
        _ = try await camera.perform(.takePhoto(PhotoSettings()))
        #expect(try await camera.perform(.decide(.discard)).isDecided)
        guard case .discarded(count: 1, answered: true) = try await camera.perform(.review(ReviewPlan(timeout: nil, unanswered: .keep))) else {
            Issue.record("the early verdict was not taken")
            return
        }
        _ = try await camera.perform(.stop)
        #expect(try photoFiles(previewed).count == 1)
    }

    @Test("Discarding held shots and their composition leaves nothing: no file, and nothing left to compose")
    func discard() async throws {
        let clock = ManualClock()
        let previewed = try await PreviewedCamera("test:black", clock: clock)
        let camera = previewed.camera
        var settings = PhotoSettings()
        settings.thumbnailMaximumSide = ShotComposition.cellWidth
        _ = try await camera.perform(.holdForReview)
        for _ in 1...2 { _ = try await camera.perform(.takePhoto(settings)) }
        guard case .held(count: 3) = try await camera.perform(.compose(layout: .strip, quality: 90, albums: [])) else {
            Issue.record("the composition was not held")
            return
        }
        let reviewing = Task { try await camera.perform(.review(ReviewPlan(timeout: 0.5, unanswered: .discard))) }
        await clock.sleepers()
        clock.advance(by: .milliseconds(500))
        guard case .discarded(count: 3, answered: false) = try await reviewing.value else {
            Issue.record("the review did not time out into a discard")
            return
        }
        await #expect(throws: OperatorError.self) { try await camera.perform(.compose(layout: .strip, quality: 90, albums: [])) }
        await #expect(throws: OperatorError.self) { try await camera.perform(.review(ReviewPlan(timeout: nil, unanswered: .keep))) }
        _ = try await camera.perform(.stop)
        #expect(try photoFiles(previewed).isEmpty)
        let library = try PhotoLibrary(folder: previewed.library.url.path)
        #expect(try library.photos().isEmpty)
    }

    @Test("A photo under review is shown turned as its orientation says; the file keeps its pixels as taken")
    func turnedForShowing() async throws {
        let previewed = try await PreviewedCamera("test")
        var settings = PhotoSettings()
        settings.rotation = 90
        guard case .photos(let shots) = try await previewed.camera.perform(.takePhoto(settings)) else {
            Issue.record("no photo was taken")
            return
        }
        _ = try await previewed.camera.perform(.stop)
        let photo = try #require(shots.first?.photo)
        #expect(photo.orientation == 6)
        let stored = try #require(JPEGFile.dimensions(of: photo.fileData))
        let shown = try #require(JPEGFile.dimensions(of: try await photo.shownPicture()))
        #expect(stored.width == 640 && stored.height == 480)
        #expect(shown.width == 480 && shown.height == 640, "\(shown)")
    }

    @Test("Stopping the session answers a waiting review as unanswered")
    func stopAnswers() async throws {
        let previewed = try await PreviewedCamera("test:black")
        let camera = previewed.camera
        _ = try await camera.perform(.holdForReview)
        _ = try await camera.perform(.takePhoto(PhotoSettings()))
        let events = camera.events()
        let reviewing = Task { try await camera.perform(.review(ReviewPlan(timeout: nil, unanswered: .keep))) }
        // Stopped once the review waits.
        for await event in events { if case .reviewing = event { break } }
        _ = try await camera.perform(.stop)
        guard case .kept(let shots, nil, answered: false) = try await reviewing.value else {
            Issue.record("the review was not ended by the stop")
            return
        }
        #expect(shots.count == 1)
        #expect(try photoFiles(previewed).count == 1)
    }
}

private extension Outcome {
    var isDecided: Bool {
        if case .decided(true) = self { return true }
        return false
    }
}
