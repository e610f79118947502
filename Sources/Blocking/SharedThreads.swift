import Dispatch
import Glibc

/// Where blocking work may not run: Swift's shared threads, which run every task and actor, and
/// which a call that waits (on a disk, SQLite, a child process, a name look-up) holds from all the
/// others. Such work goes to a ``BlockingLane``. Its entry points call ``forbid(_:)``, and a run
/// with `CAMCTL_CHECK_BLOCKING=1` in its environment ends at the first call made on a shared
/// thread, naming it: the tests run camctl so.
public enum SharedThreads {
    /// Whether the current thread is one of Swift's shared threads (the work it runs is a task's
    /// or a default actor's).
    public static var isCurrent: Bool {
        String(cString: currentQueueLabel(nil)) == "Swift global concurrent queue"
    }

    /// Whether this run checks (`CAMCTL_CHECK_BLOCKING=1`).
    public static let areChecked = getenv("CAMCTL_CHECK_BLOCKING").map { String(cString: $0) == "1" } ?? false

    /// Ends a checked run, with one line naming `work`, when called on one of Swift's shared threads.
    public static func forbid(_ work: @autoclosure () -> String) {
        guard areChecked, isCurrent else { return }
        let line = "camctl: \(work()) ran on Swift's shared threads; it belongs on a BlockingLane\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        // Where it was called from, for the developer who moves it (demangle with swift-demangle).
        var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 24)
        let count = backtrace(&frames, Int32(frames.count))
        writeSymbols(&frames, count, STDERR_FILENO)
        abort()
    }
}

/// The label of the dispatch queue running the caller (`nil`: the current one); Swift's tasks run
/// on the one Swift names "Swift global concurrent queue".
@_silgen_name("dispatch_queue_get_label")
private func currentQueueLabel(_ queue: OpaquePointer?) -> UnsafePointer<CChar>

/// glibc's stack walk: the return addresses of the calling frames, and their symbols written to a descriptor.
@_silgen_name("backtrace")
private func backtrace(_ frames: UnsafeMutablePointer<UnsafeMutableRawPointer?>, _ size: Int32) -> Int32
@_silgen_name("backtrace_symbols_fd")
private func writeSymbols(_ frames: UnsafePointer<UnsafeMutableRawPointer?>, _ count: Int32, _ descriptor: Int32)
