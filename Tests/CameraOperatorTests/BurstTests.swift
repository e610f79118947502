import CameraKit
import CameraOperator
import PhotoLibrary
import Testing
import TestSupport

@Suite("Bursts driven through SessionOperator.perform", .hangGuard(minutes: 2))
struct BurstTests {
    @Test("Two bursts at once (two front ends) each come back with their own photos, delivered, and kept without their bytes")
    func twoBurstsAtOnce() async throws {
        let previewed = try await PreviewedCamera("test")
        let camera = previewed.camera
        async let first = camera.perform(.burst(count: 5, PhotoSettings()))
        async let second = camera.perform(.burst(count: 4, PhotoSettings()))
        let outcomes = try await [first, second]
        _ = try await camera.perform(.stop)
        let bursts = outcomes.map { outcome -> [Outcome.Shot] in
            if case .photos(let shots) = outcome { shots } else { [] }
        }
        #expect(bursts.map(\.count) == [5, 4])
        let ids = bursts.flatMap { $0.map(\.photo.captureID) }
        #expect(Set(ids).count == 9, "no photo in both bursts: \(ids)")
        #expect(bursts.joined().allSatisfy { $0.delivered?.libraryPhoto != nil && $0.photo.fileData.isEmpty })
        #expect(try PhotoLibrary(folder: previewed.library.url.path).count() == 9)
    }
}
