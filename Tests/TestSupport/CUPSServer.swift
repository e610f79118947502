import Foundation
import Glibc

/// A CUPS scheduler (`cupsd`) of the test's own, on a port of its own with its configuration and
/// spool in a temporary folder, stopped when the value goes. Programs reach it through
/// ``environment`` (`CUPS_SERVER`); it has no default printer until one is set.
public final class CUPSServer: @unchecked Sendable {
    // @unchecked Sendable: set once in init; the process is only signalled afterwards.
    public let port: Int
    private let folder: TemporaryFolder
    private let scheduler: ChildProcess.Running

    public static var isAvailable: Bool { ["cupsd", "lpadmin", "cupsdisable", "lpstat", "lpoptions"].allSatisfy(ChildProcess.isInstalled) }

    /// What a program needs in its environment to use this scheduler.
    public var environment: [String: String] { ["CUPS_SERVER": "localhost:\(port)"] }

    public init() async throws {
        folder = try TemporaryFolder()
        // cupsd drops to the lp user, which must reach its folders.
        chmod(folder.url.path, 0o755)
        for name in ["spool", "cache", "state", "log"] {
            try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: true)
            chmod(folder.path(name), 0o777)
        }
        let files = folder.path("cups-files.conf"), settings = folder.path("cupsd.conf")
        try """
            ServerRoot \(folder.url.path)
            RequestRoot \(folder.path("spool"))
            TempDir \(folder.path("spool"))
            CacheDir \(folder.path("cache"))
            StateDir \(folder.path("state"))
            AccessLog \(folder.path("log/access_log"))
            ErrorLog \(folder.path("log/error_log"))
            PageLog \(folder.path("log/page_log"))
            User lp
            Group lp

            """.write(toFile: files, atomically: true, encoding: .utf8)
        var started: (Int, ChildProcess.Running)?
        var said = ""
        for candidate in (0..<10).map({ _ in Int.random(in: 20000...45000) }) {
            // Anyone on this machine may print and manage queues: it is the test's own scheduler.
            try """
                Listen localhost:\(candidate)
                LogLevel info
                DefaultAuthType None
                Browsing Off
                <Location />
                  Order allow,deny
                  Allow localhost
                </Location>
                <Policy default>
                  <Limit All>
                    Order deny,allow
                  </Limit>
                </Policy>

                """.write(toFile: settings, atomically: true, encoding: .utf8)
            let scheduler = try ChildProcess.Running("/usr/sbin/cupsd", ["-f", "-c", settings, "-s", files])
            let running = await until(hangGuard: .seconds(30)) {
                if scheduler.hasEnded { return true }
                return (try? await ChildProcess.run("lpstat", ["-r"], environment: ["CUPS_SERVER": "localhost:\(candidate)"]))?
                    .standardOutput.contains("scheduler is running") == true
            }
            if running, !scheduler.hasEnded {
                started = (candidate, scheduler)
                break
            }
            said = scheduler.errorsSoFar + ((try? String(contentsOfFile: folder.path("log/error_log"), encoding: .utf8)) ?? "")
            scheduler.send(SIGKILL)
        }
        guard let (port, scheduler) = started else { throw ChildProcess.Failure(message: "cupsd did not start: \(said)") }
        (self.port, self.scheduler) = (port, scheduler)
    }

    /// Adds a queue `name` printing to the IPP printer at `uri`, driverless, accepting and enabled,
    /// and waits until the scheduler has made it from the printer. lpadmin returns before that:
    /// the scheduler asks the printer on a thread of its own, holds "Local Raw Printer" as the
    /// queue's model meanwhile, and sets the queue's state once done, which would undo a stop
    /// made in between (a stopped queue found printing, beside a loaded suite).
    public func addQueue(_ name: String, printingTo uri: String) async throws {
        try await run("lpadmin", ["-p", name, "-E", "-v", uri, "-m", "everywhere"])
        let made = await until(hangGuard: .seconds(60)) {
            let options = (try? await ChildProcess.run("lpoptions", ["-p", name], environment: self.environment))?.standardOutput ?? ""
            return options.contains("printer-make-and-model=") && !options.contains("printer-make-and-model='Local Raw Printer'")
        }
        guard made else { throw ChildProcess.Failure(message: "CUPS did not make the queue \(name) from \(uri): \(await account(of: name))") }
    }

    /// Stops queue `name`: it takes jobs and holds them, as a printer paused by its owner.
    public func stop(_ name: String) async throws {
        try await run("cupsdisable", [name])
    }

    /// What the scheduler says of queue `name` and its jobs, and its log: to tell why a test
    /// that depends on a queue's state failed.
    public func account(of name: String) async -> String {
        let queue = (try? await ChildProcess.run("lpstat", ["-l", "-p", name, "-o", name], environment: environment))?.standardOutput ?? ""
        let log = (try? String(contentsOfFile: folder.path("log/error_log"), encoding: .utf8)) ?? ""
        return "lpstat: \(queue)\nerror_log:\n\(log.split(separator: "\n").suffix(40).joined(separator: "\n"))"
    }

    private func run(_ program: String, _ arguments: [String]) async throws {
        let result = try await ChildProcess.run(program, arguments, environment: environment)
        guard result.status == 0 else { throw ChildProcess.Failure(message: "\(program) failed: \(result.standardError)") }
    }

    deinit {
        scheduler.send(SIGKILL)
    }
}
