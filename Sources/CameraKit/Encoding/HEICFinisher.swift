/// Makes the HEIC files of photos taken with deferred processing (``PendingHEVC``), one at a
/// time, with encoders of its own that take longer than a session's and make smaller files
/// (x265's slow preset). Its encoders are kept between photos until ``stop()``.
public final class HEICFinisher: Sendable {
    private let encoders = HEVCEncoders(effort: .thorough)

    public init() {}

    /// The photo's HEIC file.
    public func heicFile(of photo: PendingHEVC) async throws(CaptureError) -> [UInt8] {
        let (frame, layout) = try photo.decoded()
        return try await HEICFile.encode(frame, as: layout, with: encoders)
    }

    /// Stops the encoders.
    public func stop() async {
        await encoders.stopAll()
    }
}
