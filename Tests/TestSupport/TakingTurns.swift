import Dispatch
import Glibc
import Synchronization
import Testing

/// For suites whose tests start programs (camctl, the tools that judge its files) and await them,
/// or keep their thread computing for seconds: a few such tests run at once, the others wait their
/// turn without holding a thread, so a run does not start hundreds of programs on two cores at
/// once. A test's hang guard counts from its turn, not from its wait for one.
///
/// A test still running when its guard runs out fails and is cancelled; one that does not end
/// within a minute of that (it awaits something cancellation cannot reach) ends the whole run,
/// naming itself, rather than leave the run waiting for ever.
public struct TakingTurns: SuiteTrait, TestTrait, TestScoping {
    /// The turns taken; `nil`: the test runs at once.
    fileprivate let turns: Turns?
    fileprivate let hangGuard: Duration

    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil, !test.isSuite else { return try await function() }  // a suite's own scope takes no turn
        guard let turns else { return try await guarded(test, function) }
        try await turns.run {
            // A turn-taker's own time, without its wait for a turn, for the run's slowest tests.
            let turn = ContinuousClock.now
            defer { TurnLog.record(test, from: turn) }
            try await guarded(test, function)
        }
    }

    private func guarded(_ test: Test, _ function: @Sendable () async throws -> Void) async throws {
        try await withoutActuallyEscaping(function) { function in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask { try await function(); return true }
                group.addTask { [hangGuard] in
                    try? await Task.sleep(for: hangGuard)
                    return Task.isCancelled  // cancelled: the test ended first
                }
                let ended = try await group.next() ?? true
                group.cancelAll()
                let watch = ended ? nil : HangWatch(test, after: hangGuard)
                defer { watch?.ended() }
                while try await group.next() != nil {}
            }
        }
    }
}

extension Trait where Self == TakingTurns {
    /// Tests that start programs and await them: three at a time, each given five minutes.
    public static var startsPrograms: Self { TakingTurns(turns: programs, hangGuard: .seconds(300)) }

    /// Tests that keep their thread computing for seconds: one at a time, so Swift's pool always
    /// has a thread for the others; each given five minutes.
    public static var computes: Self { TakingTurns(turns: computations, hangGuard: .seconds(300)) }

    /// Tests that print to an ``IPPPrinter``: one at a time, as the system's D-Bus and Avahi the
    /// printer needs are started and stopped by the test that found them absent; each given five minutes.
    public static var printsToIPP: Self { TakingTurns(turns: systemBus, hangGuard: .seconds(300)) }

    /// Tests that drive headless Chromium: one at a time, and never while a printer test starts
    /// or stops the system's D-Bus (Chromium lost its session when the bus went away under it);
    /// each given five minutes. A printer test that drives Chromium takes ``printsToIPP`` alone.
    public static var drivesBrowser: Self { TakingTurns(turns: systemBus, hangGuard: .seconds(300)) }

    /// Tests that run at once, each given `minutes` to end: a guard against a hang, never a
    /// measure of speed.
    public static func hangGuard(minutes: Int) -> Self { TakingTurns(turns: nil, hangGuard: .seconds(60 * minutes)) }
}

/// A test past its hang guard: failed and cancelled now, and the run ended if the test is still
/// running a minute later.
private final class HangWatch: Sendable {
    private let isOver = Atomic<Bool>(false)

    init(_ test: Test, after hangGuard: Duration) {
        let name = ([test.id.moduleName] + test.id.nameComponents).joined(separator: ".")
        Issue.record("hung: still running \(hangGuard) after it started (its turn came)")
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { [self] in
            guard !self.isOver.load(ordering: .acquiring) else { return }
            let line = "camctl tests: \(name) is still running a minute after its hang guard, cancelled; it cannot be stopped, so the run ends here\n"
            _ = Array(line.utf8).withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            _exit(70)
        }
    }

    func ended() {
        isOver.store(true, ordering: .releasing)
    }
}

private let programs = Turns(permits: 3)
private let computations = Turns(permits: 1)
/// The system's D-Bus: started and stopped by a printer test that found it absent, and used by
/// Chromium, which loses its session when the bus goes away under it.
private let systemBus = Turns(permits: 1)

/// Where a run notes each turn-taking test case's time from its turn to its end: the file
/// `CAMCTL_TEST_TURNS` names, a line `MODULE.SUITE.TEST<TAB>SECONDS` each, so the slowest tests
/// can be told without the time they waited for a turn (which the test report counts).
private enum TurnLog {
    static let path = getenv("CAMCTL_TEST_TURNS").map { String(cString: $0) }

    static func record(_ test: Test, from turn: ContinuousClock.Instant) {
        guard let path else { return }
        let (whole, fraction) = (ContinuousClock.now - turn).components
        let seconds = Double(whole) + Double(fraction) / 1e18
        let name = ([test.id.moduleName] + test.id.nameComponents).joined(separator: ".")
        let line = Array("\(name)\t\(seconds)\n".utf8)
        // One short write to a file opened for appending: lines from tests at once never mix.
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }
}
