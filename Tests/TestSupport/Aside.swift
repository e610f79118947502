import Foundation
import Testing

/// Runs a suite's tests on threads of their own instead of Swift's shared pool, for tests that
/// wait for child processes, blocking their thread for seconds; on the shared pool (as many threads as
/// cores) they left the in-process tests beside them no thread to run on.
public struct Aside: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(AsideExecutor.shared) { try await function() }
    }
}

extension Trait where Self == Aside {
    /// Runs the tests on threads of their own, not Swift's shared pool.
    public static var aside: Self { Aside() }
}

/// A pool of three threads of its own, which the tests that wait for children share: at most
/// three such tests run at once (as many children as the machine bears beside the timing tests
/// in the process: four made a fleet's synchronized capture miss its instants), and none of them
/// takes a thread of Swift's shared pool. A test's time limit counts its wait for a thread, so the
/// suites here allow five minutes. Jobs run newest first (see `work`).
private final class AsideExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked Sendable: the queue of jobs is only touched under `condition`'s lock.
    static let shared = AsideExecutor(threads: 3)

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(threads: Int) {
        for index in 0..<threads {
            let thread = Thread { [self] in work() }
            thread.name = "camctl-tests.aside.\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            // Newest first: the tests' first jobs are all queued as the run starts, and a test that
            // awaited something must not wait behind every test not yet begun to go on.
            let job = jobs.removeLast()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
