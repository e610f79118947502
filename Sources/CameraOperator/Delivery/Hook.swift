import Blocking
import FoundationEssentials
import Glibc
import Processes
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
    /// Where hooks are started: a process's start (its fork and exec) waits on the kernel.
    private static let starting = BlockingLane(label: "hooks")

    /// Ends the hook running now and what it started: SIGTERM, or SIGKILL with `force`.
    /// Safe to call from any thread; does nothing when no hook runs.
    public static func endRunning(force: Bool = false) {
        running.withLock { group in
            if let group { kill(-group, force ? SIGKILL : SIGTERM) }
        }
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
        // Started under the lock ``endRunning(force:)`` takes, so an interrupt never falls between
        // the hook's start and its being known: it waits for the start, then ends the hook.
        let command = command
        let child = try await Self.starting.run { () throws(DeliveryError) -> ChildProcess in
            try Self.running.withLock { running throws(DeliveryError) -> ChildProcess in
                do throws(ChildProcess.StartError) {
                    let child = try ChildProcess.start("/bin/sh", ["-c", command], environment: variables, output: .standardError, ownGroup: true)
                    running = child.pid
                    return child
                } catch {
                    throw .hookDidNotStart(command: command, reason: error.reason)
                }
            }
        }
        defer { Self.running.withLock { $0 = nil } }
        // The shell's children may outlive it; an interrupt has already ended the group.
        return switch await child.wait() {
        case .exited(let code): .exited(code)
        case .signalled(let signal): .signalled(signal)
        }
    }
}
