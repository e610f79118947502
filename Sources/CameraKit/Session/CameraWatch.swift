import GStreamer
import Synchronization

/// Watches cameras being plugged in and unplugged (hot-plug), through the device monitor, until
/// ``stop()`` or until it is freed.
public final class CameraWatch: Sendable {
    /// A camera that appeared or went.
    public enum Change: Sendable, Equatable {
        case added(CaptureDevice)
        case removed(CaptureDevice)
    }

    /// The changes from the start of the watch on; the stream ends when the watch stops.
    public let changes: AsyncStream<Change>

    private let monitor: DeviceMonitor
    private let relay: Task<Void, Never>

    /// Starts watching.
    ///
    /// - Throws: A ``CaptureError`` when no device provider can watch.
    public init() throws(CaptureError) {
        let messages: AsyncCompactMapSequence<AsyncStream<Message>, DeviceMonitor.Change>
        do {
            monitor = try DeviceDiscovery.makeMonitor()
            messages = try monitor.changes()
        } catch {
            throw CaptureError(.pipeline, "cameras could not be watched: \(error.message)")
        }
        let (changes, continuation) = AsyncStream.makeStream(of: Change.self)
        self.changes = changes
        relay = Task {
            for await message in messages {
                switch message {
                case .added(let device) where !device.capabilities.isEmpty: continuation.yield(.added(CaptureDevice(device)))
                case .removed(let device): continuation.yield(.removed(CaptureDevice(device)))
                default: continue
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { [monitor, relay] _ in
            relay.cancel()
            monitor.stopWatching()
        }
        Self.running.withLock { $0.append(WeakWatch(watch: self)) }
    }

    /// The cameras attached now, as the running watch knows them (no new probe of the system).
    public func devices() -> [CaptureDevice] {
        ((try? monitor.devices()) ?? [])
            .filter { !$0.capabilities.isEmpty }
            .map(CaptureDevice.init)
    }

    /// Stops watching now: the device providers are stopped before this returns.
    public func stop() {
        relay.cancel()
        monitor.stopWatching()
        Self.running.withLock { watches in watches.removeAll { $0.watch == nil || $0.watch === self } }
    }

    /// A watch running in this process, if any. Device providers are shared by every monitor of
    /// a process, and GStreamer 1.22's PipeWire provider does not reliably survive a second probe
    /// beside a running watch (memory corruption when a camera goes), so lists of cameras are
    /// taken from a running watch when there is one.
    static var anyRunning: CameraWatch? {
        running.withLock { watches in watches.lazy.compactMap(\.watch).first }
    }

    private static let running = Mutex<[WeakWatch]>([])

    private struct WeakWatch {
        weak var watch: CameraWatch?
    }

    deinit {
        stop()
    }
}
