import Foundation
import Glibc
import Processes
import struct TestSupport.TakingTurns
import Testing

@Suite("Child processes and threads of their own", .computes)
struct ChildProcessTests {
    @Test("A program's output is read to its end; a failing or missing program gives none")
    func output() async {
        let bytes = ChildProcess.output(of: "sh", ["-c", "head -c 200000 /dev/zero; echo done >&2"], timeout: .seconds(120))
        #expect(bytes?.count == 200_000)
        #expect(ChildProcess.output(of: "sh", ["-c", "echo partial; exit 3"], timeout: .seconds(120)) == nil)
        #expect(ChildProcess.output(of: "camctl-no-such-program", timeout: .seconds(120)) == nil)
    }

    @Test("A program that runs past its time is killed and gives nothing, even when its children hold the output open")
    func timeout() async throws {
        let marker = "/tmp/camctl-child-\(getpid()).pid"
        defer { unlink(marker) }
        #expect(ChildProcess.output(of: "sh", ["-c", "echo $$ > \(marker); echo early; exec sleep 30"], timeout: .milliseconds(500)) == nil)
        // Killed, with the child that held the output: neither is left to run out its 30 seconds.
        let shell = try #require(Int32(String(contentsOfFile: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(shell, 0) != 0, "the program is gone when the call returns")
    }

    @Test("A child's signals are at their defaults and unblocked, whatever the parent blocks; its ending is told")
    func signals() async throws {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let child = try ChildProcess.start("/bin/sh", ["-c", "kill -TERM $$; sleep 5"], environment: [], ownGroup: true)
        #expect(await child.wait() == .signalled(SIGTERM))
        let exiting = try ChildProcess.start("sh", ["-c", "exit 7"], environment: ["PATH=/usr/bin:/bin"])
        #expect(await exiting.wait() == .exited(7))
    }

    @Test("A child gets standard input, output and error only: a pipe the parent holds open is not passed on")
    func descriptors() async throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)  // without close-on-exec, as Foundation's Pipe makes them
        defer { ends.forEach { close($0) } }
        let listing = try #require(ChildProcess.output(of: "sh", ["-c", "ls /proc/$$/fd"], timeout: .seconds(120)))
        let open = String(decoding: listing, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) }
        #expect(!open.contains(ends[0]) && !open.contains(ends[1]), "\(open)")
    }

    @Test("A program that cannot be started says why")
    func cannotStart() async {
        #expect(throws: ChildProcess.StartError.self) { try ChildProcess.start("/nonexistent/program", [], environment: []) }
    }

    @Test("Work on a dedicated thread runs while Swift's threads are all busy")
    func dedicatedThread() async {
        let ran = await withCheckedContinuation { continuation in
            DedicatedThread.start { continuation.resume(returning: true) }
        }
        #expect(ran)
    }
}
