/// Waits until `condition` holds, looking again every `interval` (20 ms unless a look costs
/// more): for a state a test causes (a counter reaching a number, a file appearing) that no
/// event tells of. Bounded only by `hangGuard`, far
/// longer than the wait takes on any machine, which catches a hang and nothing else: the answer
/// says whether the condition came to hold, never how fast.
public func until(every interval: Duration = .milliseconds(20), hangGuard: Duration = .seconds(120),
                  _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + hangGuard
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: interval)
    }
}
