import Foundation
import Testing

/// Runs a suite's tests on threads of their own instead of Swift's shared pool. On the shared pool
/// (as many threads as cores) a test that blocks its thread for seconds, waiting for a child
/// process or computing, leaves every other test in the process no thread to go on with: their
/// awaits end late, and whatever they time looks slow.
public struct Aside: SuiteTrait, TestTrait, TestScoping {
    fileprivate let executor: AsideExecutor

    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == Aside {
    /// For tests that wait for child processes: they share three threads of their own, so at most
    /// three run at once (as many children as the machine bears beside the timing tests in the
    /// process: four made a fleet's synchronized capture miss its instants).
    public static var aside: Self { Aside(executor: AsideExecutor.children) }

    /// For tests in the process that block their thread: a long computation, a tool run to its end
    /// (exiftool, ffmpeg). They share two threads of their own, which leave Swift's pool free for
    /// the tests that time what they await, and run at a lower priority (as do the tools they
    /// start), so the machine's cores go first to the tests that run in real time (a recording at
    /// 1080p30, photos in a burst). A test that times its work stays off it: it would wait behind
    /// the others' computations, and a pipeline it starts would run at that priority too.
    public static var blocking: Self { Aside(executor: AsideExecutor.blocking) }
}

/// A pool of threads of its own, started as jobs come, up to a limit. A test's time limit counts
/// its wait for a thread, so the suites that use one allow five minutes. Jobs run newest first
/// (see `nextJob`).
private final class AsideExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: the jobs, the idle workers and the count are only touched under `lock`.
    static let children = AsideExecutor(limit: 3, name: "aside")
    static let blocking = AsideExecutor(limit: 2, name: "blocking", niceness: 10)

    /// A thread waiting for work, woken by its own semaphore.
    private final class Worker: Sendable {
        let wake = DispatchSemaphore(value: 0)
    }

    private let limit: Int
    private let name: String
    /// Added to its threads' scheduling niceness (Linux's is a thread's own, and passes to the
    /// processes a thread starts).
    private let niceness: Int32
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private var idle: [Worker] = []
    private var started = 0

    private init(limit: Int, name: String, niceness: Int32 = 0) {
        (self.limit, self.name, self.niceness) = (limit, name, niceness)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.lock()
        jobs.append(job)
        if let worker = idle.popLast() {
            lock.unlock()
            worker.wake.signal()
        } else if started < limit {
            started += 1
            let index = started
            lock.unlock()
            let thread = Thread { [self] in
                if niceness != 0 { _ = nice(niceness) }  // this thread's alone on Linux
                work(as: Worker())
            }
            thread.name = "camctl-tests.\(name).\(index)"
            thread.start()
        } else {
            lock.unlock()  // a busy worker takes it when done
        }
    }

    private func work(as worker: Worker) {
        while true {
            if let job = nextJob(orPark: worker) {
                job.runSynchronously(on: asUnownedTaskExecutor())
            } else {
                worker.wake.wait()
            }
        }
    }

    /// The newest job, or `nil` with the worker listed as idle. Newest first: the tests' first jobs
    /// are all queued as the run starts, and a test that awaited something must not wait behind
    /// every test not yet begun to go on.
    private func nextJob(orPark worker: Worker) -> UnownedJob? {
        lock.lock()
        defer { lock.unlock() }
        if let job = jobs.popLast() { return job }
        idle.append(worker)
        return nil
    }
}
