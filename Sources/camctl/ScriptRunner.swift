import CameraKit
import CameraOperator
import Foundation
import PipelineScript

/// Carries out a description file's steps on a running session.
struct ScriptRunner {
    let session: CaptureSession
    let operating: OperatorConsole
    let controls: ControlInbox
    let settings: PhotoSettings
    let printsJSON: Bool

    init(session: CaptureSession, camera: CaptureDevice, saving: sending PhotoSaving, controls: ControlInbox,
         settings: PhotoSettings, printsJSON: Bool) {
        operating = OperatorConsole(session: session, device: camera, saving: saving)
        (self.session, self.controls, self.settings, self.printsJSON) = (session, controls, settings, printsJSON)
    }

    /// Why a run ends early.
    private struct Finished: Error {}

    func run(_ steps: [Script.Step]) async throws(CommandFailure) {
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

    private func perform(_ steps: [Script.Step]) async throws {
        for step in steps {
            try await check(controls.next())
            switch step {
            case .countdown(let seconds):
                try await check(await operating.countDown(seconds, controls: controls))
            case .capture(let options):
                var settings = settings
                if let codec = options.codec { settings.codec = codec == "hevc" ? .hevc : .jpeg }
                if let quality = options.quality { settings.quality = quality }
                if let rotation = options.rotation { settings.rotation = rotation }
                try await operating.perform(.takePhoto(settings))
            case .burst(let count):
                try await operating.perform(.burst(count: count, settings))
            case .wait(let seconds):
                try await check(await pause(seconds, controls: controls))
            case .repeatBlock(let count, let inner):
                for _ in 0..<count { try await perform(inner) }
            case .timelapse(let every, let count):
                for index in 0..<count {
                    let start = ContinuousClock.now
                    try await operating.perform(.takePhoto(settings))
                    guard index < count - 1 else { break }
                    try await check(await pause(until: start + .seconds(every), controls: controls))
                }
            case .switchCamera:
                try await operating.perform(.nextCamera)
            case .pausePreview:
                try await operating.perform(.pausePreview)
            case .resumePreview:
                try await operating.perform(.resumePreview)
            case .compose(let layout):
                try await operating.perform(.compose(columns: layout == .grid ? 2 : 1, quality: settings.quality, albums: ["booth"]))
            case .print(let text):
                // A param set from the command line may carry escape sequences; the terminal never sees them.
                let message = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control || $0 == "\t" }))
                if printsJSON { try Console.json(["event": "print", "message": message]) } else { try Console.result(message) }
            case .image(let change):
                try await operating.perform(.changeImage(try await session.configuration.image.applying(change)))
            }
        }
    }

    /// Acts on a control between steps: Ctrl-C stops now (exit 130), q or SIGUSR2 ends the run, other keys do their job.
    private func check(_ control: Control?) async throws {
        switch control {
        case .interrupt?: throw CommandFailure.interrupted
        case .finish?: throw Finished()
        case let key?: try await operating.act(on: key)  // the shutter between steps does nothing
        case nil: break
        }
    }
}
