import Blocking
import Testing
import TestSupport

@Suite("Blocking work kept off Swift's shared threads", .hangGuard(minutes: 1))
struct SharedThreadsTests {
    actor Counter {
        func isOnSharedThreads() -> Bool { SharedThreads.isCurrent }
    }

    @Test("A task's and an actor's work is told as on the shared threads; a blocking lane's is not, even when a task gives it")
    func toldApart() async {
        #expect(await Task.detached { SharedThreads.isCurrent }.value)
        #expect(await Counter().isOnSharedThreads())
        let lane = BlockingLane(label: "shared-threads-test")
        #expect(await lane.run { SharedThreads.isCurrent } == false)
        #expect(await lane.run { () -> Bool in SharedThreads.forbid("work on a lane"); return true }, "allowed on a lane, checked or not")
    }
}
