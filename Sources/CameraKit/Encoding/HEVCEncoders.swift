/// The HEVC encoders a session has started, one per picture size and quality, made on first use
/// and kept until the session stops.
final class HEVCEncoders: Sendable {
    private let started = StartedOnFirstUse<HEVCStillEncoder.Key, HEVCStillEncoder>()
    /// How hard every encoder tries.
    let effort: HEVCEffort

    init(effort: HEVCEffort = .quick) {
        self.effort = effort
    }

    /// The encoder for a size and quality, starting it the first time.
    func encoder(width: Int, height: Int, quality: Int, tiled: Bool = false, turn: String = "none") async throws(CaptureError) -> HEVCStillEncoder {
        let key = HEVCStillEncoder.Key(width: width, height: height, quality: quality, isTiled: tiled, turn: turn, effort: effort)
        do {
            return try await started.encoder(for: key) { try await HEVCStillEncoder(key) }
        } catch {
            throw CaptureError.converting(error, context: "the HEVC encoder could not start")
        }
    }

    /// How many encoders have been started (and not stopped).
    var count: Int { started.count }

    /// Stops every encoder.
    func stopAll() async {
        for encoder in await started.removeAll() { await encoder.stop() }
    }
}
