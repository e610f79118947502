import Blocking
import Dispatch
import FoundationEssentials
import CSpawn
import Glibc
import Synchronization

/// A program run as a child process, with its signals at their default actions and nothing
/// blocked, whatever the parent blocks.
public struct ChildProcess: Sendable {
    public let pid: pid_t

    /// Where the child's standard output goes.
    public enum Output: Sendable {
        /// The parent's standard output.
        case inherited
        /// The parent's standard error (standard output is kept for results).
        case standardError
        /// A socket the parent reads (``readOutput()``).
        case captured
    }

    /// How a child ended.
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// A child that could not be started, and why (`strerror` of the failure).
    public struct StartError: Error, Sendable {
        public let reason: String
    }

    private let outputPipe: Int32?

    /// Starts `program` (a path, or a name looked up in `PATH`) with `arguments` (not including
    /// its own name) and `environment` (`NAME=value`). With `ownGroup`, the child leads a process
    /// group of its own, which ``signalGroup(_:)`` ends with everything it started. Standard
    /// input is `/dev/null`; standard error is the parent's, or `/dev/null` with `quiet`. The child
    /// gets no other descriptor of the parent's: a child that outlives its parent's use of a pipe or
    /// socket (a hook's `sleep &`) never holds it open.
    public static func start(_ program: String, _ arguments: [String], environment: [String],
                             output: Output = .inherited, quiet: Bool = false, ownGroup: Bool = false) throws(StartError) -> ChildProcess {
        SharedThreads.forbid("starting \(program)")
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        if quiet { posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0) }
        var pipeEnds: [Int32] = [-1, -1]
        switch output {
        case .inherited:
            break
        case .standardError:
            posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        case .captured:
            // A socket pair rather than a pipe: it is made close-on-exec at once, so a child another
            // thread starts meanwhile cannot hold the write end open.
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pipeEnds) == 0 else { throw StartError(reason: String(cString: strerror(errno))) }
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1)
        var pid: pid_t = 0
        let status = withCStrings([program] + arguments) { argv in
            withCStrings(environment) { envp in
                program.contains("/") ? posix_spawn(&pid, program, &actions, &attributes, argv, envp)
                    : posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            }
        }
        if pipeEnds[1] >= 0 { close(pipeEnds[1]) }
        guard status == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw StartError(reason: String(cString: strerror(status)))
        }
        return ChildProcess(pid: pid, outputPipe: pipeEnds[0] >= 0 ? pipeEnds[0] : nil)
    }

    /// Everything the child writes to a ``Output/captured`` standard output, until it closes it;
    /// the read end is closed after.
    public func readOutput() -> [UInt8] {
        guard let outputPipe else { return [] }
        defer { close(outputPipe) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(outputPipe, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Waits for the child to end, blocking this thread.
    public func waitBlocking() -> Ending {
        var code: Int32 = 0
        while waitpid(pid, &code, 0) < 0, errno == EINTR {}
        let signal = code & 0x7F
        return signal == 0 ? .exited((code >> 8) & 0xFF) : .signalled(signal)
    }

    /// Waits for the child to end on a thread of its own, off Swift's.
    public func wait() async -> Ending {
        await withCheckedContinuation { (continuation: CheckedContinuation<Ending, Never>) in
            let child = self
            let started = DedicatedThread.start { continuation.resume(returning: child.waitBlocking()) }
            if !started { continuation.resume(returning: waitBlocking()) }
        }
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// The child's standard output after it ends, or `nil` when it could not start, failed, or
    /// ran longer than `timeout` (then it is killed). Standard error is discarded.
    public static func output(of program: String, _ arguments: [String] = [], timeout: Duration) -> [UInt8]? {
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        guard let child = try? start(program, arguments, environment: environment, output: .captured, quiet: true) else { return nil }
        // The watchdog kills only a child not yet reaped, so never a process that took its number.
        let reaped = Mutex(false)
        let (seconds, attoseconds) = timeout.components
        DispatchQueue.global().asyncAfter(deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18) {
            reaped.withLock { if !$0 { child.signal(SIGKILL) } }
        }
        let bytes = child.readOutput()
        var info = siginfo_t()
        while waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
        return reaped.withLock { reaped in
            reaped = true
            return child.waitBlocking() == .exited(0) ? bytes : nil
        }
    }

    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

