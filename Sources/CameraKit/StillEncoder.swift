import Dispatch
import GStreamer

/// A JPEG encoder pipeline kept playing between captures, so a photo does not pay its start-up:
/// frames go in through an app source, encoded pictures come out of an app sink, one at a time.
final class StillEncoder: Sendable {
    private let pipeline: Pipeline
    private let input: AppSource
    private let output: AppSink
    private let encoder: Element
    private let size: Element
    private let range: Element
    /// Pushes and pulls in order, one frame at a time, off Swift's cooperative threads.
    private let queue: DispatchQueue

    /// Builds and starts the encoder.
    init(label: String) async throws(CaptureError) {
        do {
            pipeline = try Pipeline(describing: """
                appsrc name=input format=time ! videoscale ! videoconvert ! capsfilter name=size \
                ! videobalance name=range ! jpegenc name=encoder ! appsink name=output sync=false
                """)
            guard let input = pipeline.element(named: "input", as: AppSource.self),
                  let output = pipeline.element(named: "output", as: AppSink.self),
                  let encoder = pipeline.element(named: "encoder"), let size = pipeline.element(named: "size"),
                  let range = pipeline.element(named: "range")
            else {
                throw CaptureError(.pipeline, "the \(label) encoder pipeline lacks its elements")
            }
            (self.input, self.output, self.encoder, self.size, self.range) = (input, output, encoder, size, range)
            queue = DispatchQueue(label: "camctl.encoder.\(label)")
            // The sink can preroll only on the first frame, so the start is not awaited.
            try await pipeline.beginStateChange(to: .playing)
        } catch {
            throw CaptureError.converting(error, context: "the JPEG encoder could not start")
        }
    }

    /// Encodes one frame as JPEG, scaled to `width`x`height` when given.
    func encode(_ frame: Sample, quality: Int, width: Int? = nil, height: Int? = nil) async throws(CaptureError) -> [UInt8] {
        let result: Result<[UInt8], CaptureError> = await withCheckedContinuation { continuation in
            queue.async { [unowned self] in
                continuation.resume(returning: Result { () throws(CaptureError) in
                    try encodeNow(frame, quality: quality, width: width, height: height)
                })
            }
        }
        return try result.get()
    }

    private func encodeNow(_ frame: Sample, quality: Int, width: Int?, height: Int?) throws(CaptureError) -> [UInt8] {
        do {
            try encoder.setProperty("quality", quality)
            try expandRange(frame.videoInfo?.isFullRange == false)
            var caps = "video/x-raw,format=I420"
            if let width, let height { caps += ",width=\(width),height=\(height),pixel-aspect-ratio=1/1" }
            try size.setProperty("caps", .string(caps))
            try input.push(frame)
            guard let encoded = output.pullSample(timeout: .seconds(10)), let buffer = encoded.buffer else {
                throw CaptureError(.timeout, "the JPEG encoder gave no picture within 10 seconds")
            }
            return try buffer.bytes()
        } catch {
            throw CaptureError.converting(error, context: "the photo could not be encoded")
        }
    }

    /// JPEG samples span 0–255, video's 16–235 (luma) and 16–240 (chroma). GStreamer 1.22's
    /// videoconvert keeps the range when only the range differs, and jpegenc writes samples as
    /// given, so limited-range frames are stretched here (else the photo's blacks are grey and its
    /// whites dim); full-range frames (an MJPEG camera's) pass through untouched.
    private func expandRange(_ expands: Bool) throws {
        try range.setProperty("contrast", expands ? 255.0 / 219.0 : 1.0)
        try range.setProperty("brightness", expands ? -16.0 / 255.0 : 0.0)
        try range.setProperty("saturation", expands ? 255.0 / 224.0 : 1.0)
    }

    /// Stops the encoder and frees it.
    func stop() async {
        try? await pipeline.stop()
    }
}
