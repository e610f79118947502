import Foundation
import GStreamer

/// Grabs one frame from a camera, encodes it as JPEG, and writes it atomically.
struct StillCapture {
    let options: CaptureOptions

    init(_ options: CaptureOptions) {
        self.options = options
    }

    func run() async throws(CommandFailure) {
        let description = try launchDescription()
        let pipeline: Pipeline
        do {
            pipeline = try Pipeline(describing: description)
        } catch {
            throw CommandFailure(error.description, exitCode: .software)
        }
        guard let sink = pipeline.element(named: "photo", as: AppSink.self) else {
            throw CommandFailure("the capture pipeline has no photo sink", exitCode: .software)
        }
        let jpeg: [UInt8]
        do {
            try await pipeline.play()
            guard let sample = sink.pullSample(timeout: .seconds(10)), let buffer = sample.buffer else {
                throw CommandFailure("the camera delivered no frame within 10 seconds; check that it is streaming", exitCode: .unavailable)
            }
            jpeg = try buffer.bytes()
            try await pipeline.stop()
        } catch let error as GStreamerError {
            throw CommandFailure(error.description, exitCode: error.kind == .resource ? .unavailable : .software)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("the frame could not be read: \(error)", exitCode: .software)
        }
        try AtomicFile.write(jpeg, to: options.output)
        print(options.output)
    }

    private func launchDescription() throws(CommandFailure) -> String {
        let source: String
        if options.device == "test" {
            source = "videotestsrc"
        } else if options.device.hasPrefix("test:") {
            source = "videotestsrc pattern=\(options.device.dropFirst(5))"
        } else {
            throw CommandFailure("only the built-in test camera (--device test) is supported so far", exitCode: .unavailable)
        }
        return "\(source) num-buffers=1 ! video/x-raw,format=I420,width=\(options.width),height=\(options.height) "
            + "! jpegenc quality=\(options.quality) ! appsink name=photo sync=false"
    }
}
