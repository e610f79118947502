import JSON

/// Something that happened, as every front end tells it: one JSON object with its name in
/// `event` and the vocabulary's `version`, printed by `--json`, sent on `/api/events` and
/// published by a fleet node alike (`{"event": "countdown", "seconds_left": 3, "version": 1}`).
public enum EventRecord: Codable, Sendable, Equatable {
    // The operator's.
    /// Seconds left of a countdown.
    case countdown(secondsLeft: Int)
    /// Shot `number` of a booth's or a capture's `of`.
    case shot(number: Int, of: Int)
    /// A booth's shot `shot` is shown in its place and can be taken again (`retake`) until `cleared`.
    case retakeOffered(shot: Int)
    /// What the preview shows over the camera: `shots`, `result`, `review` or `attract`; cleared
    /// when the camera is shown again.
    case showing(picture: String)
    case cleared
    /// The attract screen between a booth's guests began, inviting the next with `message`.
    case attracting(message: String)
    /// Photos held for a decision, for `timeout` seconds (`nil`, written `null`: until answered).
    case reviewing(count: Int, timeout: Double?)
    /// The decision on held photos; `answered` is false when the review's time ran out.
    case kept(count: Int, answered: Bool)
    case discarded(count: Int, answered: Bool)
    /// A hook that failed: its exit status, or the signal that ended it.
    case hookFailed(path: String, status: Int?, signal: Int?)
    /// Frames a burst let pass (numbered from its first, 0): its memory for photos was full.
    case burstSkipped(frames: [Int])
    /// A photo delivered; a HEIC made final from its proxy; one that could not be.
    case photo(PhotoRecord)
    case processed(photo: PhotoRecord)
    case processingFailed(id: Int64, message: String)
    /// A booth's animation kept in the library.
    case animation(movie: PhotoRecord)
    /// A recording started into `path`; its movie kept; a recording that failed.
    case recording(path: String)
    case movie(PhotoRecord)
    case movieFailed(message: String)
    /// A picture sent to `printer` as job `job`; the job printed; a print that failed.
    case printing(printer: String, job: Int)
    /// Sheet `number` of the job's `of` is out of the printer (as the printer counts them).
    case printProgress(printer: String, job: Int, number: Int, of: Int)
    case printed(printer: String, job: Int)
    case printFailed(message: String)
    // The session's.
    case interrupted(message: String)
    case resumed(message: String)
    case failed(message: String)
    case stopped
    /// The camera switched to, by name.
    case switched(message: String)
    case cameraAdded(message: String)
    case cameraRemoved(message: String)
    /// The camera (a DSLR) has no live view; the preview shows its last photo.
    case noLiveView(message: String)
    // A front end's.
    /// A server listening (`camctl serve --json`).
    case serving(url: String, port: Int, tokenRequired: Bool, rtspURL: String?, rtspPort: Int?)
    /// A description file's `print` step.
    case print(message: String)
    /// A fleet node's answer to command `id`: what the action did; or why it was refused
    /// (`id` is `nil` when the command's could not be read).
    case result(id: String, OutcomeRecord)
    case error(id: String?, status: Int, message: String)
    // A program's own.
    /// An event of an output or front end of one's own (`{"event": "motion", "score": 0.4}`): its
    /// name, which no event above has, and its fields beside it. An event this vocabulary does
    /// not know is read as one.
    case custom(name: String, fields: [String: JSONValue])

    /// Whether `name` is one of the vocabulary's own events' (which a custom event may not take):
    /// what the reader does not read as a custom event.
    public static func isOwnName(_ name: String) -> Bool {
        let alone = WireJSON.bytes(["event": .string(name)] as JSONValue)
        guard case .custom? = try? WireJSON.decode(EventRecord.self, from: alone) else { return true }
        return false
    }

    /// The event's name, as `event` holds it.
    public var name: String {
        switch self {
        case .countdown: "countdown"
        case .shot: "shot"
        case .retakeOffered: "retake_offered"
        case .showing: "showing"
        case .cleared: "cleared"
        case .attracting: "attracting"
        case .reviewing: "reviewing"
        case .kept: "kept"
        case .discarded: "discarded"
        case .hookFailed: "hook_failed"
        case .burstSkipped: "burst_skipped"
        case .photo: "photo"
        case .processed: "processed"
        case .processingFailed: "processing_failed"
        case .animation: "animation"
        case .recording: "recording"
        case .movie: "movie"
        case .movieFailed: "movie_failed"
        case .printing: "printing"
        case .printProgress: "print_progress"
        case .printed: "printed"
        case .printFailed: "print_failed"
        case .interrupted: "interrupted"
        case .resumed: "resumed"
        case .failed: "failed"
        case .stopped: "stopped"
        case .switched: "switched"
        case .cameraAdded: "camera_added"
        case .cameraRemoved: "camera_removed"
        case .noLiveView: "no_live_view"
        case .serving: "serving"
        case .print: "print"
        case .result: "result"
        case .error: "error"
        case .custom(let name, _): name
        }
    }

    private enum Key: String, CodingKey {
        case event, version, count, timeout, answered, path, status, signal, number, of, frames, picture, photo, id, message, movie, url, port
        case printer, job
        case error
        case secondsLeft = "seconds_left", tokenRequired = "token_required", rtspURL = "rtsp_url", rtspPort = "rtsp_port"
    }

    public func encode(to encoder: any Encoder) throws {
        // A photo's and a result's fields sit beside the event's name, in the same object.
        switch self {
        case .photo(let record): try record.encode(to: encoder)
        case .result(_, let outcome): try outcome.encode(to: encoder)
        case .custom(_, let fields):
            var own = encoder.container(keyedBy: FieldKey.self)
            for (key, value) in fields where key != Key.event.rawValue && key != Key.version.rawValue {
                try own.encode(value, forKey: FieldKey(stringValue: key))
            }
        default: break
        }
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: .event)
        try container.encode(WireJSON.version, forKey: .version)
        switch self {
        case .countdown(let left): try container.encode(left, forKey: .secondsLeft)
        case .shot(let number, let count):
            try container.encode(number, forKey: .number)
            try container.encode(count, forKey: .of)
        case .retakeOffered(let shot): try container.encode(shot, forKey: .number)
        case .showing(let picture): try container.encode(picture, forKey: .picture)
        case .reviewing(let count, let timeout):
            try container.encode(count, forKey: .count)
            try container.encode(timeout, forKey: .timeout)
        case .kept(let count, let answered), .discarded(let count, let answered):
            try container.encode(count, forKey: .count)
            try container.encode(answered, forKey: .answered)
        case .hookFailed(let path, let status, let signal):
            try container.encode(path, forKey: .path)
            try container.encodeIfPresent(status, forKey: .status)
            try container.encodeIfPresent(signal, forKey: .signal)
        case .burstSkipped(let frames): try container.encode(frames, forKey: .frames)
        case .processed(let photo): try container.encode(photo, forKey: .photo)
        case .processingFailed(let id, let message):
            try container.encode(id, forKey: .id)
            try container.encode(message, forKey: .message)
        case .animation(let movie): try container.encode(movie, forKey: .movie)
        case .recording(let path): try container.encode(path, forKey: .path)
        case .movie(let movie): try container.encode(movie, forKey: .movie)
        case .printing(let printer, let job), .printed(let printer, let job):
            try container.encode(printer, forKey: .printer)
            try container.encode(job, forKey: .job)
        case .printProgress(let printer, let job, let number, let count):
            try container.encode(printer, forKey: .printer)
            try container.encode(job, forKey: .job)
            try container.encode(number, forKey: .number)
            try container.encode(count, forKey: .of)
        case .movieFailed(let message), .printFailed(let message), .attracting(let message), .interrupted(let message), .resumed(let message), .failed(let message), .switched(let message),
             .cameraAdded(let message), .cameraRemoved(let message), .print(let message), .noLiveView(let message):
            try container.encode(message, forKey: .message)
        case .serving(let url, let port, let tokenRequired, let rtspURL, let rtspPort):
            try container.encode(url, forKey: .url)
            try container.encode(port, forKey: .port)
            try container.encode(tokenRequired, forKey: .tokenRequired)
            try container.encodeIfPresent(rtspURL, forKey: .rtspURL)
            try container.encodeIfPresent(rtspPort, forKey: .rtspPort)
        case .result(let id, _): try container.encode(id, forKey: .id)
        case .error(let id, let status, let message):
            try container.encode(id, forKey: .id)
            try container.encode(status, forKey: .status)
            try container.encode(message, forKey: .error)
        case .cleared, .stopped, .photo, .custom: break
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func value<Value: Decodable>(_ key: Key) throws -> Value { try container.decode(Value.self, forKey: key) }
        func optional<Value: Decodable>(_ key: Key) throws -> Value? { try container.decodeIfPresent(Value.self, forKey: key) }
        let name: String = try value(.event)
        switch name {
        case "countdown": self = .countdown(secondsLeft: try value(.secondsLeft))
        case "shot": self = .shot(number: try value(.number), of: try value(.of))
        case "retake_offered": self = .retakeOffered(shot: try value(.number))
        case "showing": self = .showing(picture: try value(.picture))
        case "cleared": self = .cleared
        case "attracting": self = .attracting(message: try value(.message))
        case "reviewing": self = .reviewing(count: try value(.count), timeout: try optional(.timeout))
        case "kept": self = .kept(count: try value(.count), answered: try value(.answered))
        case "discarded": self = .discarded(count: try value(.count), answered: try value(.answered))
        case "hook_failed": self = .hookFailed(path: try value(.path), status: try optional(.status), signal: try optional(.signal))
        case "burst_skipped": self = .burstSkipped(frames: try value(.frames))
        case "photo": self = .photo(try PhotoRecord(from: decoder))
        case "processed": self = .processed(photo: try value(.photo))
        case "processing_failed": self = .processingFailed(id: try value(.id), message: try value(.message))
        case "animation": self = .animation(movie: try value(.movie))
        case "recording": self = .recording(path: try value(.path))
        case "movie": self = .movie(try value(.movie))
        case "movie_failed": self = .movieFailed(message: try value(.message))
        case "printing": self = .printing(printer: try value(.printer), job: try value(.job))
        case "print_progress":
            self = .printProgress(printer: try value(.printer), job: try value(.job), number: try value(.number), of: try value(.of))
        case "printed": self = .printed(printer: try value(.printer), job: try value(.job))
        case "print_failed": self = .printFailed(message: try value(.message))
        case "interrupted": self = .interrupted(message: try value(.message))
        case "resumed": self = .resumed(message: try value(.message))
        case "failed": self = .failed(message: try value(.message))
        case "stopped": self = .stopped
        case "switched": self = .switched(message: try value(.message))
        case "camera_added": self = .cameraAdded(message: try value(.message))
        case "camera_removed": self = .cameraRemoved(message: try value(.message))
        case "no_live_view": self = .noLiveView(message: try value(.message))
        case "serving":
            self = .serving(url: try value(.url), port: try value(.port), tokenRequired: try value(.tokenRequired), rtspURL: try optional(.rtspURL),
                            rtspPort: try optional(.rtspPort))
        case "print": self = .print(message: try value(.message))
        case "result": self = .result(id: try value(.id), try OutcomeRecord(from: decoder))
        case "error": self = .error(id: try optional(.id), status: try value(.status), message: try value(.error))
        default:
            let own = try decoder.container(keyedBy: FieldKey.self)
            var fields: [String: JSONValue] = [:]
            for key in own.allKeys where key.stringValue != Key.event.rawValue && key.stringValue != Key.version.rawValue {
                fields[key.stringValue] = try own.decode(JSONValue.self, forKey: key)
            }
            self = .custom(name: name, fields: fields)
        }
    }

    /// A field of a custom event, by its name.
    private struct FieldKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }
}
