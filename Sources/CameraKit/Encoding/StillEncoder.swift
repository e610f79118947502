import GStreamer
import Synchronization

/// A JPEG encoder pipeline kept playing between captures, so a photo does not pay its start-up:
/// frames go in through an app source, encoded pictures come out of an app sink, one at a time.
/// It has only the elements its ``Shape`` needs: a photo of the frame as it is goes from the app
/// source straight into `jpegenc`.
final class StillEncoder: Sendable {
    /// What an encoder does besides encoding: scale the picture, turn it.
    struct Shape: Hashable, Sendable {
        var scales: Bool
        var turns: Bool
    }

    private let transform: AppPipeline
    private let encoder: Element
    private let size: Element?
    private let turn: Element?
    /// The turn the encoder is set to: changed only when a photo asks for another, since each
    /// change renegotiates the pipeline.
    private let currentTurn = Mutex("none")

    /// Builds and starts the encoder.
    init(_ shape: Shape) async throws(CaptureError) {
        let turning = shape.turns ? "videoflip name=turn ! " : ""
        let scaling = shape.scales ? "videoscale ! capsfilter name=size ! " : ""
        do {
            transform = try await AppPipeline(describing: "appsrc name=input format=time ! \(turning)\(scaling)jpegenc name=encoder ! appsink name=output sync=false",
                                              label: "encoder.jpeg")
        } catch {
            throw CaptureError.converting(error, context: "the JPEG encoder could not start")
        }
        size = transform.pipeline.element(named: "size")
        turn = transform.pipeline.element(named: "turn")
        guard let encoder = transform.pipeline.element(named: "encoder"), (size != nil) == shape.scales, (turn != nil) == shape.turns else {
            await transform.stop()
            throw CaptureError(.pipeline, "the JPEG encoder pipeline lacks its elements")
        }
        self.encoder = encoder
    }

    /// Encodes one frame as JPEG, turned by a `videoflip` method (an encoder that turns), and
    /// scaled to `width`x`height` after turning (an encoder that scales).
    func encode(_ frame: Sample, quality: Int, width: Int?, height: Int?, turn method: String) async throws(CaptureError) -> [UInt8] {
        try await transform.run { [unowned self] () throws(CaptureError) in
            try encodeNow(frame, quality: quality, width: width, height: height, turn: method)
        }
    }

    private func encodeNow(_ frame: Sample, quality: Int, width: Int?, height: Int?, turn method: String) throws(CaptureError) -> [UInt8] {
        do {
            try encoder.setProperty("quality", quality)
            if let turn, currentTurn.withLock({ $0 }) != method {
                try turn.setProperty("method", .string(method))
                currentTurn.withLock { $0 = method }
            }
            if let size, let width, let height {
                try size.setProperty("caps", .string("video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1"))
            }
            try transform.input.push(frame)
            guard let encoded = transform.output.pullSample(timeout: .seconds(10)), let buffer = encoded.buffer else {
                throw CaptureError(.timeout, "the JPEG encoder gave no picture within 10 seconds")
            }
            return try buffer.bytes()
        } catch {
            throw CaptureError.converting(error, context: "the photo could not be encoded")
        }
    }

    /// Stops the encoder and frees it.
    func stop() async {
        await transform.stop()
    }
}
