@testable import CameraKit
import Foundation
import HEIF
import Testing

@Suite("HEIC photos from the session", .hangGuard(minutes: 3))
struct HEVCCaptureTests {
    @Test("The HEVC encoders start with the first HEIC photo and serve the next ones")
    func encodersKeptReady() async throws {
        var configuration = try CaptureSessionTests.configuration("640x480@30")
        configuration.exposureSettling = nil
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        #expect(session.photoOutput.hevcEncoders?.count == 0, "no HEVC encoder runs before a HEIC photo is asked for")
        var settings = PhotoSettings()
        settings.codec = .hevc
        var photos: [Photo] = []
        for _ in 0..<3 { photos.append(try await session.photoOutput.capture(settings, after: photos.last)) }
        #expect(session.photoOutput.hevcEncoders?.count == 2, "one for the photo, one for its thumbnail, kept")
        for photo in photos {
            let contents = try HEIFContents(parsing: photo.fileData)
            #expect(contents.displaySize.map { [$0.width, $0.height] } == [640, 480])
            #expect(photo.resolvedSettings.codec == .hevc)
        }
        await session.stop()
    }

    @Test("Quality maps to x265's rate factor: 90 is CRF 22, 100 is 12, 1 is 51, lower quality never a lower factor")
    func qualityMapping() async {
        #expect(HEVCStillEncoder.rateFactor(forQuality: 90) == 22)
        #expect(HEVCStillEncoder.rateFactor(forQuality: 100) == 12)
        #expect(HEVCStillEncoder.rateFactor(forQuality: 1) == 51)
        let factors = (1...100).map(HEVCStillEncoder.rateFactor(forQuality:))
        #expect(zip(factors, factors.dropFirst()).allSatisfy { $0 >= $1 })
    }
}
