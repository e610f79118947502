import Foundation

/// An `--exec` hook: `/bin/sh -c COMMAND` in a process group of its own, its standard output sent
/// to standard error (standard output is for camctl's results). While it runs, an interrupt
/// (Ctrl-C, SIGTERM) ends it and whatever it started, then camctl stops; camctl never leaves a
/// hook running behind it.
struct Hook {
    let command: String

    /// How a hook ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Runs the hook with `environment` added to camctl's, and waits for it off Swift's threads.
    func run(adding environment: [String: String]) async throws(CommandFailure) -> Ending {
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawnattr_init(&attributes)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attributes)
            posix_spawn_file_actions_destroy(&actions)
        }
        // A group of its own, which an interrupt ends as a whole; signals at their default actions.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all)
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        var pid: pid_t = 0
        let status = withCStrings(["/bin/sh", "-c", command]) { arguments in
            withCStrings(variables) { environment in
                posix_spawn(&pid, "/bin/sh", &actions, &attributes, arguments, environment)
            }
        }
        guard status == 0 else {
            throw CommandFailure("--exec could not run: \(String(cString: strerror(status)))", exitCode: .software)
        }
        ControlInbox.shared.setHookGroup(pid)
        defer { ControlInbox.shared.setHookGroup(nil) }
        let child = pid
        let code = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            Thread.detachNewThread {
                var code: Int32 = 0
                while waitpid(child, &code, 0) < 0, errno == EINTR {}
                continuation.resume(returning: code)
            }
        }
        // The shell's children may outlive it; an interrupt has already ended the group.
        let signal = code & 0x7F
        return signal == 0 ? .exited((code >> 8) & 0xFF) : .signalled(signal)
    }

    private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
