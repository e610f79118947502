import CameraOperator

extension Outcome {
    /// What an action did as every transport answers it: `{"outcome": "photos", "photos": [...]}`.
    public var record: [String: Any] {
        switch self {
        case .photos(let shots): ["outcome": "photos", "photos": shots.compactMap { $0.delivered?.record }]
        case .countdownEnded(let early): ["outcome": "countdown_ended", "early": early]
        case .resultShown(let early): ["outcome": "result_shown", "early": early]
        case .shotsShown(let early): ["outcome": "shots_shown", "early": early]
        case .cut(let ended): ["outcome": "cut", "ended": ended]
        case .held(let count): ["outcome": "held", "count": count]
        case .kept(let shots, let composed, let answered):
            ["outcome": "kept", "photos": shots.compactMap { $0.delivered?.record }, "composed": composed?.record ?? [:] as Any,
             "answered": answered]
        case .discarded(let count, let answered): ["outcome": "discarded", "count": count, "answered": answered]
        case .decided(let answered): ["outcome": "decided", "answered": answered]
        case .switched(let camera): ["outcome": "switched", "device": camera.name, "device_id": camera.id]
        case .noOtherCamera: ["outcome": "no_other_camera"]
        case .previewPaused(let paused): ["outcome": "preview_paused", "paused": paused]
        case .imageChanged(let image):
            ["outcome": "image_changed", "filter": image.filters.map(\.rawValue).joined(separator: "+"), "zoom": image.zoom]
        case .composed(let delivered): ["outcome": "composed", "composed": delivered.record]
        case .boothTaken(let shots, let composed):
            ["outcome": "booth_taken", "photos": shots.compactMap { $0.delivered?.record }, "composed": composed?.record ?? [:] as Any]
        case .runEnded(let ended): ["outcome": "run_ended", "ended": ended]
        case .recordingStarted(let path): ["outcome": "recording", "path": path]
        case .recordingPaused(let paused): ["outcome": "recording_paused", "paused": paused]
        case .movie(let movie): ["outcome": "movie", "movie": movie.record]
        case .stopped: ["outcome": "stopped"]
        }
    }
}
