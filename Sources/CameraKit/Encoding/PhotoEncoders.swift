/// The encoders a running session's photos use: the photo's and the thumbnail's JPEG encoders,
/// started together with the session so each is ready for the first photo, and the HEVC
/// encoders, started on the first HEIC photo. Stopped together when the session stops.
final class PhotoEncoders: Sendable {
    let photo: StillEncoder
    let thumbnail: StillEncoder
    let hevc = HEVCEncoders()

    private init(photo: StillEncoder, thumbnail: StillEncoder) {
        self.photo = photo
        self.thumbnail = thumbnail
    }

    /// Starts the JPEG encoders side by side; when one fails, the other is stopped.
    static func start() async throws(CaptureError) -> PhotoEncoders {
        async let photo = started("photo")
        async let thumbnail = started("thumbnail")
        switch (await photo, await thumbnail) {
        case (.success(let photo), .success(let thumbnail)):
            return PhotoEncoders(photo: photo, thumbnail: thumbnail)
        case (.failure(let error), let other), (let other, .failure(let error)):
            if case .success(let started) = other { await started.stop() }
            throw error
        }
    }

    private static func started(_ label: String) async -> Result<StillEncoder, CaptureError> {
        do {
            return .success(try await StillEncoder(label: label))
        } catch {
            return .failure(error)
        }
    }

    /// Stops every encoder.
    func stop() async {
        await photo.stop()
        await thumbnail.stop()
        await hevc.stopAll()
    }
}
