import CameraKit
import OperatorWire

extension OperatorEvent {
    /// The event's record, as every front end gives it: what `camctl --json` prints,
    /// `/api/events` sends and a fleet node publishes, alike.
    public var record: EventRecord { record(wording: \.description) }

    /// The event's record, with the camera's failures said by `wording` (a front end's remedies
    /// as its own options or fields).
    public func record(wording: (CaptureError) -> String) -> EventRecord {
        switch self {
        case .countdown(let left): .countdown(secondsLeft: left)
        case .reviewing(let count, let timeout): .reviewing(count: count, timeout: timeout)
        case .kept(let count, let answered): .kept(count: count, answered: answered)
        case .discarded(let count, let answered): .discarded(count: count, answered: answered)
        case .hookFailed(let path, .exited(let status)): .hookFailed(path: path, status: Int(status), signal: nil)
        case .hookFailed(let path, .signalled(let signal)): .hookFailed(path: path, status: nil, signal: Int(signal))
        case .shot(let number, let count): .shot(number: number, of: count)
        case .retakeOffered(let shot): .retakeOffered(shot: shot)
        case .burstSkipped(let frames): .burstSkipped(frames: frames)
        case .showing(let kind): .showing(picture: kind.rawValue)
        case .cleared: .cleared
        case .attracting(let line): .attracting(message: line)
        case .photo(let record): .photo(record)
        case .processed(let photo): .processed(photo: photo.record)
        case .processingFailed(let id, let reason): .processingFailed(id: id, message: reason)
        case .animationKept(let clip): .animation(movie: clip.record)
        case .recordingStarted(let path): .recording(path: path)
        case .movieKept(let movie): .movie(movie.record)
        case .movieFailed(let reason): .movieFailed(message: reason)
        case .printing(let printer, let job): .printing(printer: printer, job: job)
        case .printProgress(let printer, let job, let number, let count): .printProgress(printer: printer, job: job, number: number, of: count)
        case .printed(let printer, let job): .printed(printer: printer, job: job)
        case .printFailed(let reason): .printFailed(message: reason)
        case .interrupted(let error): .interrupted(message: wording(error))
        case .resumed: .resumed(message: "the camera is back")
        case .failed(let error): .failed(message: wording(error))
        case .stopped: .stopped
        case .switched(let name): .switched(message: name)
        case .cameraAdded(let camera): .cameraAdded(message: camera.description)
        case .cameraRemoved(let camera): .cameraRemoved(message: camera.description)
        case .noLiveView(let name): .noLiveView(message: "\(name) has no live view; the preview shows its last photo")
        case .custom(let name, let fields): .custom(name: name, fields: fields)
        }
    }
}
