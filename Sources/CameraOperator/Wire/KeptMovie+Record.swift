import CameraKit
import OperatorWire

extension KeptMovie {
    /// The movie's record, as every front end gives it.
    public var record: MovieRecord {
        MovieRecord(path: libraryMovie.path, id: libraryMovie.id, width: libraryMovie.width, height: libraryMovie.height,
                    codec: libraryMovie.codec, audioCodec: recorded.hasSound ? "aac" : nil, duration: libraryMovie.duration ?? 0,
                    frames: frameCount, lostFrames: recorded.lostFrameCount, capturedAt: WireTime.iso(libraryMovie.capturedAt),
                    capturedAtMicroseconds: WireTime.microseconds(libraryMovie.capturedAt), device: device.name, deviceID: device.id,
                    bytes: libraryMovie.byteCount, thumbnailPath: libraryMovie.thumbnailPath, ended: recorded.ending.word,
                    encoder: recorded.encoder, error: recorded.failure?.description)
    }
}

extension MovieEnding {
    /// How the recording ended, in one word for JSON.
    public var word: String {
        switch self {
        case .stopped: "stopped"
        case .reachedDuration: "duration"
        case .reachedSize: "size"
        case .sessionStopped: "session_stopped"
        case .failed: "failed"
        }
    }
}
