import GStreamer

/// A picture made into a JPEG of a given size, its shape kept within it (a one-shot pipeline):
/// a camera's photo brought down to a thumbnail, or to what a preview shows.
enum ScaledJPEG {
    /// `picture` (of caps `caps`, decoded by `decoder`, empty for raw pixels) as a JPEG of
    /// `width`x`height` at `quality`.
    ///
    /// - Throws: ``CaptureError`` when it cannot be decoded or encoded.
    static func make(from picture: [UInt8], caps: String = "image/jpeg", decoder: String = "! jpegdec", width: Int, height: Int,
                     quality: Int = 85) async throws(CaptureError) -> [UInt8] {
        do {
            let scaler = try await AppPipeline(describing: """
                appsrc name=input caps=\(caps) \(decoder) ! videoconvert ! videoscale \
                ! video/x-raw,width=\(width),height=\(height),pixel-aspect-ratio=1/1 ! jpegenc quality=\(quality) ! appsink name=output sync=false
                """, label: "scaled picture")
            defer { Task { await scaler.stop() } }
            let sample = try await scaler.transform([try picture.withUnsafeBytes { try Buffer(copying: $0) }])[0]
            guard let jpeg = try sample?.buffer?.bytes(), !jpeg.isEmpty else { throw CaptureError(.unreadableFile, "the picture could not be decoded") }
            return jpeg
        } catch let error as CaptureError {
            throw error
        } catch {
            throw CaptureError.converting(error, context: "the picture could not be scaled")
        }
    }
}
