import CameraKit
import CameraOperator
import Foundation
import PipelineScript

/// Carries out a description file's steps on a running session.
struct ScriptRunner {
    let session: CaptureSession
    var camera: CaptureDevice
    let saving: PhotoSaving
    let controls: ControlInbox
    let settings: PhotoSettings
    let printsJSON: Bool
    /// The photos taken so far, for `compose`.
    private var shots: [Photo] = []

    init(session: CaptureSession, camera: CaptureDevice, saving: PhotoSaving, controls: ControlInbox,
         settings: PhotoSettings, printsJSON: Bool) {
        (self.session, self.camera, self.saving, self.controls, self.settings, self.printsJSON) =
            (session, camera, saving, controls, settings, printsJSON)
    }

    /// Why a run ends early.
    private struct Finished: Error {}

    mutating func run(_ steps: [Script.Step]) async throws(CommandFailure) {
        do {
            try await perform(steps)
        } catch is Finished {
            return
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("the run stopped: \(error)", exitCode: .software)
        }
    }

    private mutating func perform(_ steps: [Script.Step]) async throws {
        for step in steps {
            try check(controls.next())
            switch step {
            case .countdown(let seconds):
                try check(await Countdown(seconds: seconds, preview: session.previewOutput).run(controls: controls))
            case .capture(let options):
                var settings = settings
                if let codec = options.codec { settings.codec = codec == "hevc" ? .hevc : .jpeg }
                if let quality = options.quality { settings.quality = quality }
                if let rotation = options.rotation { settings.rotation = rotation }
                try await capture(settings)
            case .burst(let count):
                let photos: [Photo]
                do {
                    photos = try await session.photoOutput.captureBurst(count: count, settings)
                } catch {
                    throw CommandFailure(error)
                }
                for photo in photos { try await keep(photo) }
            case .wait(let seconds):
                try check(await pause(seconds, controls: controls))
            case .repeatBlock(let count, let inner):
                for _ in 0..<count { try await perform(inner) }
            case .timelapse(let every, let count):
                for index in 0..<count {
                    let start = ContinuousClock.now
                    try await capture(settings)
                    guard index < count - 1 else { break }
                    try check(await pause(until: start + .seconds(every), controls: controls))
                }
            case .switchCamera:
                guard let next = PreviewCommand.camera(after: camera) else { continue }
                do {
                    try await session.switchDevice(to: next)
                } catch {
                    throw CommandFailure(error)
                }
                camera = next
            case .pausePreview:
                session.previewOutput.pause()
            case .resumePreview:
                session.previewOutput.resume()
            case .compose(let layout):
                try await compose(layout)
            case .print(let text):
                // A param set from the command line may carry escape sequences; the terminal never sees them.
                let message = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control || $0 == "\t" }))
                if printsJSON { try Console.json(["event": "print", "message": message]) } else { try Console.result(message) }
            case .image(let change):
                do {
                    try await session.changeImage(to: try await session.configuration.image.applying(change))
                } catch let error as CaptureError {
                    throw CommandFailure(error)
                }
            }
        }
    }

    private mutating func capture(_ settings: PhotoSettings) async throws {
        let photo: Photo
        do {
            photo = try await session.photoOutput.capture(settings, after: shots.last)
        } catch {
            throw CommandFailure(error)
        }
        try await keep(photo)
    }

    private mutating func keep(_ photo: Photo) async throws {
        shots.append(photo)
        try await saving.save(photo, number: shots.count, device: camera)
    }

    /// The shots so far in a 2-column grid or a 1-column strip, saved like a booth's.
    private func compose(_ layout: Script.Layout) async throws {
        guard let first = shots.first else {
            throw CommandFailure("compose found no photos taken before it; put capture steps first", exitCode: .dataError)
        }
        let (composed, grid): ([UInt8], PhotoComposer.Layout)
        do {
            (composed, grid) = try await ShotComposition.compose(shots, columns: layout == .grid ? 2 : 1, quality: settings.quality)
        } catch {
            throw CommandFailure(error)
        }
        // Into the library; without one, next to the photos under the output pattern.
        let copy: String? = if saving.library == nil, case .pattern(let pattern)? = saving.delivery.copy {
            pattern.path(number: shots.count + 1, date: first.requestedAt)
        } else {
            nil
        }
        try await saving.saveComposition(composed, width: grid.width, height: grid.height, takenAt: first.requestedAt,
                                   device: camera, copyTo: copy)
    }

    /// Acts on a control between steps: Ctrl-C stops now (exit 130), q or SIGUSR2 ends the run.
    private func check(_ control: Control?) throws {
        switch control {
        case .interrupt?: throw CommandFailure.interrupted
        case .finish?: throw Finished()
        case .togglePreview?:
            let preview = session.previewOutput
            if preview.isPaused { preview.resume() } else { preview.pause() }
        default: break
        }
    }
}
