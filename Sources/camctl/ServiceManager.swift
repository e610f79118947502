import Dispatch
import Glibc
import Synchronization

/// systemd's notify protocol, for `camctl serve` run as a `Type=notify` service: readiness once
/// it serves, a status line, the watchdog's pings, and its stopping. Through libsystemd's
/// `sd_notify`, loaded only when systemd asks for the protocol (`NOTIFY_SOCKET` is set), so
/// camctl runs where libsystemd is not installed.
enum ServiceManager {
    private typealias Notify = @convention(c) (Int32, UnsafePointer<CChar>?) -> Int32
    private typealias WatchdogEnabled = @convention(c) (Int32, UnsafeMutablePointer<UInt64>?) -> Int32

    private struct Library: @unchecked Sendable {
        // @unchecked Sendable: function pointers into a library that stays loaded, never changed.
        let notify: Notify
        let watchdogEnabled: WatchdogEnabled
    }

    private static let library: Library? = {
        guard getenv("NOTIFY_SOCKET") != nil, let handle = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL),
              let notify = dlsym(handle, "sd_notify"), let watchdog = dlsym(handle, "sd_watchdog_enabled") else { return nil }
        return Library(notify: unsafeBitCast(notify, to: Notify.self), watchdogEnabled: unsafeBitCast(watchdog, to: WatchdogEnabled.self))
    }()

    /// Where notifications are sent: `sd_notify` blocks while the manager does not read its
    /// socket, so it runs here, never on the caller's thread nor Swift's shared threads.
    private static let lane = DispatchQueue(label: "camctl.service-manager")
    /// How many notifications wait on the lane; past ``mostWaiting`` new ones are let go (a
    /// manager that reads nothing is told nothing more, and camctl never waits for it).
    private static let waiting = Mutex(0)
    private static let mostWaiting = 8

    /// Tells systemd `state` (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`, a line each)
    /// without waiting for it; nothing when camctl does not run as a notify service.
    static func tell(_ state: String) {
        guard let library else { return }
        let queued = waiting.withLock { count in
            guard count < mostWaiting else { return false }
            count += 1
            return true
        }
        guard queued else { return }
        lane.async {
            _ = library.notify(0, state)
            waiting.withLock { $0 -= 1 }
        }
    }

    /// The shortest watchdog interval followed: a shorter one (`WatchdogSec` of microseconds) would
    /// only spin a core with pings.
    static let shortestWatchdogInterval = Duration.seconds(1)

    /// How often systemd's watchdog wants to hear from this process, when it watches it (at
    /// least ``shortestWatchdogInterval``).
    static var watchdogInterval: Duration? {
        var microseconds: UInt64 = 0
        guard let library, library.watchdogEnabled(0, &microseconds) > 0, microseconds > 0 else { return nil }
        return max(.microseconds(Int64(clamping: microseconds)), shortestWatchdogInterval)
    }
}
