import Foundation
import Synchronization

/// A hook command run after a picture is delivered: `/bin/sh -c COMMAND` in a process group of
/// its own, its standard output sent to standard error (standard output is for results). The
/// hook running now can be ended with everything it started (``endRunning(force:)``), so an
/// interrupted run never leaves a hook behind it.
public struct Hook: Sendable {
    public let command: String

    /// How a hook ended.
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    public init(command: String) {
        self.command = command
    }

    /// The process group of the hook running now, if one is.
    private static let running = Mutex<pid_t?>(nil)

    /// Ends the hook running now and what it started: SIGTERM, or SIGKILL with `force`.
    /// Safe to call from any thread; does nothing when no hook runs.
    public static func endRunning(force: Bool = false) {
        if let group = running.withLock({ $0 }) { kill(-group, force ? SIGKILL : SIGTERM) }
    }

    /// Runs the command for a delivered picture, with `CAMCTL_PHOTO` (its path), `CAMCTL_ID`
    /// (its library id) and `CAMCTL_COPY` (its copy) set.
    public func run(for delivered: Delivered) async throws(DeliveryError) -> Ending {
        try await run(adding: [
            "CAMCTL_PHOTO": delivered.path,
            "CAMCTL_ID": delivered.libraryPhoto.map { String($0.id) } ?? "",
            "CAMCTL_COPY": delivered.copy ?? "",
        ])
    }

    /// Runs the hook with `environment` added to the process's, and waits for it off Swift's threads.
    public func run(adding environment: [String: String]) async throws(DeliveryError) -> Ending {
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
            throw .hookDidNotStart(command: command, reason: String(cString: strerror(status)))
        }
        Self.running.withLock { $0 = pid }
        defer { Self.running.withLock { $0 = nil } }
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
