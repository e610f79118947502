import OperatorWire

extension Outcome {
    /// What an action did, as every transport answers it.
    public var record: OutcomeRecord {
        switch self {
        case .photos(let shots): .photos(shots.compactMap { $0.delivered?.record })
        case .countdownEnded(let early): .countdownEnded(early: early)
        case .resultShown(let early): .resultShown(early: early)
        case .shotsShown(let early): .shotsShown(early: early)
        case .attractEnded: .attractEnded
        case .cut(let ended): .cut(ended: ended)
        case .retaking(let retaking): .retaking(retaking)
        case .held(let count): .held(count: count)
        case .kept(let shots, let composed, let answered):
            .kept(photos: shots.compactMap { $0.delivered?.record }, composed: composed?.record, answered: answered)
        case .discarded(let count, let answered): .discarded(count: count, answered: answered)
        case .decided(let answered): .decided(answered: answered)
        case .switched(let camera): .switched(device: camera.name, deviceID: camera.id)
        case .noOtherCamera: .noOtherCamera
        case .previewPaused(let paused): .previewPaused(paused)
        case .imageChanged(let image): .imageChanged(filter: image.filters.map(\.rawValue).joined(separator: "+"), zoom: image.zoom)
        case .screenColor(let colour): .screenColor(colour.hex)
        case .composed(let delivered): .composed(delivered.record)
        case .boothTaken(let shots, let composed): .boothTaken(photos: shots.compactMap { $0.delivered?.record }, composed: composed?.record)
        case .runEnded(let ended): .runEnded(ended)
        case .recordingStarted(let path): .recording(path: path)
        case .recordingPaused(let paused): .recordingPaused(paused)
        case .movie(let movie): .movie(movie.record)
        case .stopped: .stopped
        }
    }
}
