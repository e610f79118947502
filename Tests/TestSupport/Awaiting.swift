/// Waits until `condition` holds, looking again every 20 ms: for a state a test causes (a counter
/// reaching a number, a file appearing) that no event tells of. Bounded only by `hangGuard`, far
/// longer than the wait takes on any machine, which catches a hang and nothing else: the answer
/// says whether the condition came to hold, never how fast.
public func until(hangGuard: Duration = .seconds(120), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + hangGuard
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
}
