import GStreamer
import Synchronization

/// The encoders a running session's photos, thumbnails and snapshots use, each started on its
/// first use and kept while the session runs (a command that may take more photos has them warm);
/// a session that takes no photo starts none. Stopped together when the session stops.
final class PhotoEncoders: Sendable {
    private let jpeg = StartedOnFirstUse<StillEncoder.Shape, StillEncoder>()
    let hevc = HEVCEncoders()
    private let jpegEncodes = Atomic<Int>(0)

    /// Encodes a frame as JPEG, scaled to `width`x`height` when given and turned by a `videoflip`
    /// method when given, on the JPEG encoder of that shape (started the first time). The
    /// frame's samples are written as JPEG's full range: pass a limited-range frame through
    /// ``RangeExpansion`` first.
    func encodeJPEG(_ frame: Sample, quality: Int, width: Int? = nil, height: Int? = nil,
                    turn: String? = nil) async throws(CaptureError) -> [UInt8] {
        let method = turn ?? "none"
        let shape = StillEncoder.Shape(scales: width != nil && height != nil, turns: method != "none")
        let encoder: StillEncoder
        do {
            encoder = try await jpeg.encoder(for: shape) { try await StillEncoder(shape) }
        } catch {
            throw CaptureError.converting(error, context: "the JPEG encoder could not start")
        }
        jpegEncodes.add(1, ordering: .relaxed)
        return try await encoder.encode(frame, quality: quality, width: width, height: height, turn: method)
    }

    /// Starts the JPEG encoder of a shape now, without waiting for it, so that the first photo
    /// needing it does not wait for its start.
    func startJPEGEarly(_ shape: StillEncoder.Shape) {
        jpeg.startEarly(shape) { try await StillEncoder(shape) }
    }

    /// How many JPEG encoders have been started.
    var jpegCount: Int { jpeg.count }

    /// How many frames have been given to the JPEG encoders.
    var jpegEncodeCount: Int { jpegEncodes.load(ordering: .relaxed) }

    /// Stops every encoder.
    func stop() async {
        for encoder in await jpeg.removeAll() { await encoder.stop() }
        await hevc.stopAll()
    }
}
