import CTimex
import OperatorWire

/// What the kernel says of the system clock's synchronization, as a time daemon (chrony, ntpd,
/// linuxptp's phc2sys) leaves it: read with `adjtimex` without changing anything.
struct SystemClock: Sendable {
    /// Whether a daemon keeps the clock synchronized (the kernel's state is not `TIME_ERROR` and
    /// its status lacks `STA_UNSYNC`).
    let isSynchronized: Bool
    /// The offset the kernel is still correcting, and the largest and the estimated error, in seconds.
    let offset: Double
    let maximumError: Double
    let estimatedError: Double

    /// The clock now; `nil` when the kernel does not say.
    static func now() -> SystemClock? {
        var timex = CTimex.timex()
        let state = adjtimex(&timex)
        guard state >= 0 else { return nil }
        let offsetUnit = timex.status & STA_NANO != 0 ? 1e-9 : 1e-6
        return SystemClock(isSynchronized: state != TIME_ERROR && timex.status & STA_UNSYNC == 0,
                           offset: Double(timex.offset) * offsetUnit,
                           maximumError: Double(timex.maxerror) * 1e-6, estimatedError: Double(timex.esterror) * 1e-6)
    }

    /// As a node's status carries it.
    var record: ClockRecord {
        ClockRecord(synchronized: isSynchronized, offset: offset, maximumError: maximumError, estimatedError: estimatedError)
    }
}
