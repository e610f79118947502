import CameraKit
import Testing
import TestSupport

/// The steps every front end takes for "next filter" and "zoom in or out".
@Suite("Image settings' steps", .hangGuard(minutes: 3))
struct ImageStepsTests {
    @Test("Next filter goes through every filter in order, then back to none; a chain counts as none")
    func nextFilter() {
        var image = ImageSettings()
        var seen: [[ImageFilter]] = []
        for _ in ImageFilter.allCases {
            image = image.withNextFilter()
            seen.append(image.filters)
        }
        #expect(seen == ImageFilter.allCases.dropFirst().map { [$0] } + [[]], "\(seen)")
        var chained = ImageSettings()
        chained.filters = Array(ImageFilter.allCases.dropFirst().prefix(2))
        #expect(chained.withNextFilter().filters == [ImageFilter.allCases[1]])
    }

    @Test("A zoom step multiplies or divides by 1.25, within the zoom's range")
    func zoomSteps() {
        let image = ImageSettings()
        #expect(image.zoomed(in: true).zoom == 1.25 && image.zoomed(in: true).zoomed(in: true).zoom == 1.5625)
        #expect(image.zoomed(in: false).zoom == 1, "never below 1")
        var near = ImageSettings()
        near.zoom = 7
        #expect(near.zoomed(in: true).zoom == 8, "never above 8")
    }
}
