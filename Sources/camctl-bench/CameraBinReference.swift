import Foundation
import GStreamer

/// GStreamer's own camera element, camerabin, driven as an application would: a live test source
/// through wrappercamerabinsrc, a viewfinder, and `start-capture` until its `image-done` message
/// (the JPEG written to a file).
enum CameraBinReference {
    /// Milliseconds from `start-capture` to `image-done`, one per capture.
    static func shutterLag(width: Int, height: Int, captures: Int) async throws -> [Double] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("camerabin-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let camerabin = try Pipeline(factory: "camerabin")
        let wrapper = try Element(factory: "wrappercamerabinsrc")
        let camera = try Element(factory: "videotestsrc")
        try camera.setProperty("is-live", true)
        try wrapper.setProperty("video-source", camera)
        let viewfinder = try Element(factory: "fakesink")
        try viewfinder.setProperty("sync", false)
        try camerabin.setProperty("camera-source", wrapper)
        try camerabin.setProperty("viewfinder-sink", viewfinder)
        try camerabin.setProperty("mode", .enumeration("mode-image"))
        try camerabin.setProperty("image-capture-caps", .string("video/x-raw,width=\(width),height=\(height)"))
        try camerabin.setProperty("location", folder + "/capture_%d.jpg")
        let messages = camerabin.messages()
        try await camerabin.play(timeout: .seconds(20))
        var iterator = messages.makeAsyncIterator()
        var lags: [Double] = []
        for index in 0...captures {
            let start = ContinuousClock.now
            camerabin.emit("start-capture")
            while let message = await iterator.next() {
                if case .element(_, let structure) = message, structure.name == "image-done" { break }
                if case .error(let report) = message { throw BenchmarkFailure("camerabin failed: \(report.text)") }
            }
            let elapsed = ContinuousClock.now - start
            if index > 0 {  // the first capture warms camerabin's image branch
                lags.append(elapsed.seconds * 1000)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        try await camerabin.stop()
        return lags
    }
}
