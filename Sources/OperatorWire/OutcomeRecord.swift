/// What an action did, as every transport answers it: one JSON object with its kind in `outcome`
/// and the vocabulary's `version` (`{"outcome": "photos", "photos": [...], "version": 1}`).
public enum OutcomeRecord: Codable, Sendable, Equatable {
    /// Photos taken (a capture, a burst, the frame nearest an instant).
    case photos([PhotoRecord])
    /// A countdown's, a showing's end; `early` when something cut it short.
    case countdownEnded(early: Bool)
    case resultShown(early: Bool)
    case shotsShown(early: Bool)
    /// The attract screen between a booth's guests ended (the next guest came, or the session stopped).
    case attractEnded
    /// Whether a cut ended something (a countdown, a showing, a review).
    case cut(ended: Bool)
    /// Whether a booth's shot shown was dropped, to be taken again.
    case retaking(Bool)
    /// The photos now held for a review.
    case held(count: Int)
    /// The held photos kept (with the booth's composition) or discarded; `answered` is false when
    /// the review's time ran out.
    case kept(photos: [PhotoRecord], composed: PhotoRecord?, answered: Bool)
    case discarded(count: Int, answered: Bool)
    /// A review answered from elsewhere.
    case decided(answered: Bool)
    /// The camera switched to; none other to switch to.
    case switched(device: String, deviceID: String)
    case noOtherCamera
    case previewPaused(Bool)
    /// The picture's settings now: its filters (`+` between them) and zoom.
    case imageChanged(filter: String, zoom: Double)
    /// The green screen's colour as the camera sees it, as `#rrggbb`.
    case screenColor(String)
    case composed(PhotoRecord)
    case boothTaken(photos: [PhotoRecord], composed: PhotoRecord?)
    /// Whether a run (a booth, a capture plan) was ended.
    case runEnded(Bool)
    case recording(path: String)
    case recordingPaused(Bool)
    case movie(MovieRecord)
    case stopped
    /// A page of a library for a fleet's controller, and whether more follow.
    case listing(photos: [PhotoRecord], more: Bool)
    /// A photo sent to `printer` as job `job`.
    case printing(printer: String, job: Int)
    /// A picture e-mailed to the address a guest gave.
    case mailed

    /// The outcome's kind, as `outcome` holds it.
    public var name: String {
        switch self {
        case .photos: "photos"
        case .countdownEnded: "countdown_ended"
        case .resultShown: "result_shown"
        case .shotsShown: "shots_shown"
        case .attractEnded: "attract_ended"
        case .cut: "cut"
        case .retaking: "retaking"
        case .held: "held"
        case .kept: "kept"
        case .discarded: "discarded"
        case .decided: "decided"
        case .switched: "switched"
        case .noOtherCamera: "no_other_camera"
        case .previewPaused: "preview_paused"
        case .imageChanged: "image_changed"
        case .screenColor: "screen_color"
        case .composed: "composed"
        case .boothTaken: "booth_taken"
        case .runEnded: "run_ended"
        case .recording: "recording"
        case .recordingPaused: "recording_paused"
        case .movie: "movie"
        case .stopped: "stopped"
        case .listing: "listing"
        case .printing: "printing"
        case .mailed: "mailed"
        }
    }

    /// The photos it carries, the composition last.
    public var allPhotos: [PhotoRecord] {
        switch self {
        case .photos(let photos), .listing(let photos, _): photos
        case .kept(let photos, let composed, _), .boothTaken(let photos, let composed): photos + (composed.map { [$0] } ?? [])
        case .composed(let photo): [photo]
        default: []
        }
    }

    /// The same outcome with `change` made to each photo it carries (a server adding its links).
    public func withPhotos(_ change: (PhotoRecord) -> PhotoRecord) -> OutcomeRecord {
        switch self {
        case .photos(let photos): .photos(photos.map(change))
        case .listing(let photos, let more): .listing(photos: photos.map(change), more: more)
        case .kept(let photos, let composed, let answered): .kept(photos: photos.map(change), composed: composed.map(change), answered: answered)
        case .boothTaken(let photos, let composed): .boothTaken(photos: photos.map(change), composed: composed.map(change))
        case .composed(let photo): .composed(change(photo))
        default: self
        }
    }

    private enum Key: String, CodingKey {
        case outcome, version, photos, early, ended, count, composed, answered, device, paused, filter, zoom, path, movie, more, printer, job
        case color
        case deviceID = "device_id"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: .outcome)
        try container.encode(WireJSON.version, forKey: .version)
        switch self {
        case .photos(let photos): try container.encode(photos, forKey: .photos)
        case .countdownEnded(let early), .resultShown(let early), .shotsShown(let early): try container.encode(early, forKey: .early)
        case .cut(let ended), .runEnded(let ended), .retaking(let ended): try container.encode(ended, forKey: .ended)
        case .held(let count): try container.encode(count, forKey: .count)
        case .kept(let photos, let composed, let answered):
            try container.encode(photos, forKey: .photos)
            try container.encodeIfPresent(composed, forKey: .composed)
            try container.encode(answered, forKey: .answered)
        case .discarded(let count, let answered):
            try container.encode(count, forKey: .count)
            try container.encode(answered, forKey: .answered)
        case .decided(let answered): try container.encode(answered, forKey: .answered)
        case .switched(let device, let id):
            try container.encode(device, forKey: .device)
            try container.encode(id, forKey: .deviceID)
        case .previewPaused(let paused), .recordingPaused(let paused): try container.encode(paused, forKey: .paused)
        case .imageChanged(let filter, let zoom):
            try container.encode(filter, forKey: .filter)
            try container.encode(zoom, forKey: .zoom)
        case .screenColor(let colour): try container.encode(colour, forKey: .color)
        case .composed(let photo): try container.encode(photo, forKey: .composed)
        case .boothTaken(let photos, let composed):
            try container.encode(photos, forKey: .photos)
            try container.encodeIfPresent(composed, forKey: .composed)
        case .recording(let path): try container.encode(path, forKey: .path)
        case .movie(let movie): try container.encode(movie, forKey: .movie)
        case .listing(let photos, let more):
            try container.encode(photos, forKey: .photos)
            try container.encode(more, forKey: .more)
        case .printing(let printer, let job):
            try container.encode(printer, forKey: .printer)
            try container.encode(job, forKey: .job)
        case .noOtherCamera, .stopped, .mailed, .attractEnded: break
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func value<Value: Decodable>(_ key: Key) throws -> Value { try container.decode(Value.self, forKey: key) }
        let name: String = try value(.outcome)
        switch name {
        case "photos": self = .photos(try value(.photos))
        case "countdown_ended": self = .countdownEnded(early: try value(.early))
        case "result_shown": self = .resultShown(early: try value(.early))
        case "shots_shown": self = .shotsShown(early: try value(.early))
        case "attract_ended": self = .attractEnded
        case "cut": self = .cut(ended: try value(.ended))
        case "retaking": self = .retaking(try value(.ended))
        case "held": self = .held(count: try value(.count))
        case "kept":
            self = .kept(photos: try value(.photos), composed: try container.decodeIfPresent(PhotoRecord.self, forKey: .composed),
                         answered: try value(.answered))
        case "discarded": self = .discarded(count: try value(.count), answered: try value(.answered))
        case "decided": self = .decided(answered: try value(.answered))
        case "switched": self = .switched(device: try value(.device), deviceID: try value(.deviceID))
        case "no_other_camera": self = .noOtherCamera
        case "preview_paused": self = .previewPaused(try value(.paused))
        case "image_changed": self = .imageChanged(filter: try value(.filter), zoom: try value(.zoom))
        case "screen_color": self = .screenColor(try value(.color))
        case "composed": self = .composed(try value(.composed))
        case "booth_taken":
            self = .boothTaken(photos: try value(.photos), composed: try container.decodeIfPresent(PhotoRecord.self, forKey: .composed))
        case "run_ended": self = .runEnded(try value(.ended))
        case "recording": self = .recording(path: try value(.path))
        case "recording_paused": self = .recordingPaused(try value(.paused))
        case "movie": self = .movie(try value(.movie))
        case "stopped": self = .stopped
        case "listing": self = .listing(photos: try value(.photos), more: try value(.more))
        case "printing": self = .printing(printer: try value(.printer), job: try value(.job))
        case "mailed": self = .mailed
        default:
            throw DecodingError.dataCorruptedError(forKey: .outcome, in: container, debugDescription: "no outcome is named \(name)")
        }
    }
}
