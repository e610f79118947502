import GStreamer
import Synchronization

/// The HEVC encoders a session has started, one per picture size and quality, made on first use
/// and kept until the session stops.
final class HEVCEncoders: Sendable {
    private let started = Mutex<[HEVCStillEncoder.Key: Task<HEVCStillEncoder, any Error>]>([:])
    /// How hard every encoder tries.
    let effort: HEVCEffort

    init(effort: HEVCEffort = .quick) {
        self.effort = effort
    }

    /// The encoder for a size and quality, starting it the first time.
    func encoder(width: Int, height: Int, quality: Int, tiled: Bool = false, turn: String = "none") async throws(CaptureError) -> HEVCStillEncoder {
        let key = HEVCStillEncoder.Key(width: width, height: height, quality: quality, isTiled: tiled, turn: turn, effort: effort)
        let starting = started.withLock { encoders in
            if let existing = encoders[key] { return existing }
            let task = Task { () async throws -> HEVCStillEncoder in try await HEVCStillEncoder(key) }
            encoders[key] = task
            return task
        }
        do {
            return try await starting.value
        } catch {
            _ = started.withLock { $0.removeValue(forKey: key) }
            throw CaptureError.converting(error, context: "the HEVC encoder could not start")
        }
    }

    /// How many encoders have been started (and not stopped).
    var count: Int { started.withLock { $0.count } }

    /// Stops every encoder.
    func stopAll() async {
        let tasks = started.withLock { encoders in
            defer { encoders.removeAll() }
            return Array(encoders.values)
        }
        for task in tasks {
            await (try? task.value)?.stop()
        }
    }
}
