import CameraKit
import CameraOperator
import Foundation

/// The command line's side of a ``SessionOperator``: it hands over the delivery the options
/// chose, prints each picture as it is written (its path, or its JSON object) and each hook that
/// failed, shows countdowns in the terminal, and turns failures into exit codes.
final class OperatorConsole: Sendable {
    let camera: SessionOperator
    private let hookCommand: String?
    private let progress: Task<Void, Never>

    /// An operator for `session`, running on `device`, delivering as `saving` says.
    init(session: CaptureSession, device: CaptureDevice, saving: sending PhotoSaving, albums: [String] = [],
         compositionCopy: String? = nil) {
        let printsJSON = saving.printsJSON, delivery = saving.delivery
        let (copy, sidecar) = (delivery.copy, delivery.sidecar)
        hookCommand = delivery.hook?.command
        camera = SessionOperator(session: session, delivery: delivery, device: device, albums: albums,
                                 compositionCopy: PhotoSaving.target(compositionCopy)) { delivered in
            try PhotoSaving.report(delivered, printsJSON: printsJSON, copy: copy, sidecar: sidecar)
        }
        progress = Task { [camera] in
            for await case .countdown(let left) in camera.events {
                Console.progress("taking the photo in \(left)…", replacing: true)
            }
        }
    }

    deinit {
        progress.cancel()
    }

    /// Does what the action asks; a hook that failed is noted. With `notingCameraFailure`, a
    /// failure of the camera is noted after that text instead (a preview goes on), and `nil` returned.
    @discardableResult
    func perform(_ action: Action, notingCameraFailure context: String? = nil) async throws(CommandFailure) -> Outcome? {
        let outcome: Outcome
        do {
            outcome = try await camera.perform(action)
        } catch .capture(let failure) where context != nil {
            Console.note("\(context ?? ""): \(failure.commandLineSentence)")
            return nil
        } catch {
            throw CommandFailure(error)
        }
        if case .photos(let shots) = outcome {
            for shot in shots { note(shot.hookEnding, for: shot.delivered) }
        }
        return outcome
    }

    /// Counts down on the preview and in the terminal; a key or signal cuts it short and is returned.
    func countDown(_ seconds: Double, controls: ControlInbox) async -> Control? {
        guard seconds > 0 else { return nil }
        defer { Console.endProgressLine() }
        return await withTaskGroup(of: Control?.self) { [camera] group in
            group.addTask {
                _ = try? await camera.perform(.countdown(seconds: seconds))
                return nil
            }
            group.addTask { await controls.next(within: nil) }
            var cutBy: Control?
            for await ending in group {
                // The first to end ends the other: a control cuts the countdown; a countdown that
                // ran out stops waiting for a control (one that came meanwhile still counts).
                if cutBy == nil { cutBy = ending }
                _ = try? await camera.perform(.cutCountdown)
                group.cancelAll()
            }
            return cutBy
        }
    }

    private func note(_ ending: Hook.Ending?, for delivered: Delivered?) {
        guard let ending, let command = hookCommand, let path = delivered?.path else { return }
        switch ending {
        case .exited(let status) where status != 0:
            Console.note("--exec \"\(command)\" ended with status \(status) for \(path)")
        case .signalled(let signal):
            Console.note("--exec \"\(command)\" was ended by signal \(signal) (\(String(cString: strsignal(signal)))) for \(path)")
        default:
            break
        }
    }
}
