import GStreamer
import Synchronization

/// A JPEG encoder pipeline kept playing between captures, so a photo does not pay its start-up:
/// frames go in through an app source, encoded pictures come out of an app sink, one at a time.
final class StillEncoder: Sendable {
    private let transform: AppPipeline
    private let encoder: Element
    private let size: Element
    private let turn: Element
    /// The turn the encoder is set to: changed only when a photo asks for another, since each
    /// change renegotiates the pipeline.
    private let currentTurn = Mutex("none")

    /// Builds and starts the encoder.
    init(label: String) async throws(CaptureError) {
        do {
            transform = try await AppPipeline(describing: """
                appsrc name=input format=time ! videoflip name=turn ! videoscale ! videoconvert ! capsfilter name=size \
                ! jpegenc name=encoder ! appsink name=output sync=false
                """, label: "encoder.\(label)")
        } catch {
            throw CaptureError.converting(error, context: "the JPEG encoder could not start")
        }
        guard let encoder = transform.pipeline.element(named: "encoder"), let size = transform.pipeline.element(named: "size"),
              let turn = transform.pipeline.element(named: "turn") else {
            await transform.stop()
            throw CaptureError(.pipeline, "the \(label) encoder pipeline lacks its elements")
        }
        (self.encoder, self.size, self.turn) = (encoder, size, turn)
    }

    /// Encodes one frame as JPEG, turned by a `videoflip` method when given, and scaled to
    /// `width`x`height` (after turning) when given. The frame's samples are written as JPEG's full
    /// range: pass a limited-range frame through ``RangeExpansion`` first.
    func encode(_ frame: Sample, quality: Int, width: Int? = nil, height: Int? = nil,
                turn method: String? = nil) async throws(CaptureError) -> [UInt8] {
        try await transform.run { [unowned self] () throws(CaptureError) in
            try encodeNow(frame, quality: quality, width: width, height: height, turn: method ?? "none")
        }
    }

    private func encodeNow(_ frame: Sample, quality: Int, width: Int?, height: Int?, turn method: String) throws(CaptureError) -> [UInt8] {
        do {
            try encoder.setProperty("quality", quality)
            if currentTurn.withLock({ $0 }) != method {
                try turn.setProperty("method", .string(method))
                currentTurn.withLock { $0 = method }
            }
            var caps = "video/x-raw,format=I420"
            if let width, let height { caps += ",width=\(width),height=\(height),pixel-aspect-ratio=1/1" }
            try size.setProperty("caps", .string(caps))
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
