import Dispatch
import GStreamer
import Synchronization

/// Watches over a session's camera: cameras plugged in and unplugged while the session runs or
/// waits to resume (hot-plug), and a camera that stops sending frames without saying so (a
/// stall). A resume waits on its arrivals instead of looking again and again.
final class CameraSupervisor: Sendable {
    private let hotPlug = Mutex<(watch: CameraWatch, relay: Task<Void, Never>)?>(nil)
    private let arrivals = Broadcast<Void>()

    /// Starts watching cameras come and go, unless it watches already: each change is an event,
    /// and each camera unplugged goes to `removed`. Without a device provider that can watch,
    /// nothing is watched.
    func watchHotPlug(reportingTo events: Broadcast<SessionEvent>,
                      removed: @escaping @Sendable (CaptureDevice) async -> Void) {
        hotPlug.withLock { hotPlug in
            guard hotPlug == nil, let watch = try? CameraWatch() else { return }
            let relay = Task { [arrivals] in
                for await change in watch.changes {
                    switch change {
                    case .added(let camera):
                        events.send(.cameraAdded(camera))
                        arrivals.send(())
                    case .removed(let camera):
                        events.send(.cameraRemoved(camera))
                        await removed(camera)
                    }
                }
            }
            hotPlug = (watch, relay)
        }
    }

    /// Stops watching cameras come and go.
    func stopWatchingHotPlug() {
        let stopped = hotPlug.withLock { hotPlug in
            defer { hotPlug = nil }
            return hotPlug
        }
        stopped?.watch.stop()
        stopped?.relay.cancel()
    }

    /// The cameras plugged in from now on. Subscribed before looking for a camera, it holds one
    /// that arrives during the look.
    func cameraArrivals() -> AsyncStream<Void> {
        arrivals.subscribe(bufferingNewest: 1)
    }

    /// Waits for the next camera of `arrivals`, or until `timeout` has passed.
    static func wait(for arrivals: AsyncStream<Void>, atMost timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in arrivals { return }
            }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Calls `stalled` once when no frame passes `pad` for two seconds, or three frame intervals
    /// when frames come slower (a PipeWire node that went away leaves pipewiresrc waiting with
    /// neither an error nor an end of stream). Cancelling the task ends the watch.
    static func watchForStalls(at pad: Pad, frameRate: Fraction,
                               stalled: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        let lastFrame = Atomic<UInt64>(DispatchTime.now().uptimeNanoseconds)
        pad.addProbe(.buffer) { _ in
            lastFrame.store(DispatchTime.now().uptimeNanoseconds, ordering: .relaxed)
            return .pass
        }
        let limit = UInt64(max(2.0, 3 / max(0.1, frameRate.doubleValue)) * 1e9)
        return Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                let silence = DispatchTime.now().uptimeNanoseconds &- lastFrame.load(ordering: .relaxed)
                if silence > limit, !Task.isCancelled {
                    await stalled()
                    return
                }
            }
        }
    }
}
