import Foundation
import Glibc
import Synchronization

/// CUPS's own IPP Everywhere printer (`ippeveprinter`) on a port of its own, keeping every job's
/// document in a folder for the test to compare. It needs DNS-SD, so the system's D-Bus and Avahi
/// are started when they do not run; printers of tests running at once share them, and the last
/// printer to stop stops them.
public final class IPPPrinter: @unchecked Sendable {
    // @unchecked Sendable: set once in init; the processes are only signalled afterwards.
    public let port: Int
    /// The folder the printer keeps each job's document in (`N-TITLE.jpg`).
    public let spool: TemporaryFolder
    private let printer: ChildProcess.Running

    /// The printers alive in this process, and the daemons they started, each with the file it
    /// leaves behind: stopped when the last printer stops, not while another still needs them.
    private static let shared = Mutex<(printers: Int, daemons: [(daemon: ChildProcess.Running, leaves: String)])>((0, []))

    public static var isAvailable: Bool { ["ippeveprinter", "avahi-daemon", "dbus-daemon"].allSatisfy(ChildProcess.isInstalled) }

    /// The printer's address for libcups.
    public var uri: String { "ipp://localhost:\(port)/ipp/print" }

    /// A printer taking documents in `formats` (MIME types, comma-separated); with `media`, the
    /// paper it takes (PWG names, the first its default); with `attributes`, more of what it says
    /// of itself, as ipptool's `ATTR` lines (`ATTR keyword urf-supported W8,RS300`). Each job's
    /// attributes are kept for ``jobAttributes()``; with `failing`, every job fails as it is printed;
    /// with `countingSheets`, each copy of a job is a sheet the printer counts out
    /// (`job-impressions-completed`) and then holds until ``releaseSheet(_:ofJob:)``.
    public init(formats: String = "image/jpeg,image/pwg-raster,application/pdf", media: [String]? = nil, attributes: [String] = [],
                failing: Bool = false, countingSheets: Bool = false) async throws {
        Self.shared.withLock { $0.printers += 1 }
        do {
            (port, printer, spool) = try await Self.start(formats: formats, media: media, attributes: attributes, failing: failing,
                                                          countingSheets: countingSheets)
        } catch {
            Self.stopOne()
            throw error
        }
    }

    /// Starts the system's D-Bus and Avahi where they do not run.
    private static func startDaemons() async throws {
        // A daemon's socket or pid file may be left from one that was killed: what counts is its
        // process, alive (one killed by an earlier test may not have been reaped yet).
        if try await ChildProcess.run("pgrep", ["-r", "R,S,D", "-f", "dbus-daemon.*--system"]).status != 0 {
            mkdir("/run/dbus", 0o755)
            unlink(Self.busSocket)
            let daemon = try ChildProcess.Running("/usr/bin/dbus-daemon", ["--system", "--nofork", "--nopidfile"])
            shared.withLock { $0.daemons.append((daemon, busSocket)) }
            guard await until(hangGuard: .seconds(30), { access(Self.busSocket, F_OK) == 0 }) else {
                throw ChildProcess.Failure(message: "the system's D-Bus did not start")
            }
        }
        if try await ChildProcess.run("pgrep", ["-r", "R,S,D", "-x", "avahi-daemon"]).status != 0 {
            unlink(Self.avahiPIDFile)
            let daemon = try ChildProcess.Running("/usr/sbin/avahi-daemon", ["--no-drop-root", "--no-chroot"])
            shared.withLock { $0.daemons.append((daemon, avahiPIDFile)) }
            guard await until(hangGuard: .seconds(30), { (try? await ChildProcess.run("avahi-daemon", ["--check"]).status) == 0 }) else {
                throw ChildProcess.Failure(message: "Avahi did not start")
            }
        }
    }

    /// Starts the daemons that do not run, then the printer; returns its port, process and spool.
    private static func start(formats: String, media: [String]?, attributes extra: [String], failing: Bool, countingSheets: Bool) async throws
        -> (Int, ChildProcess.Running, TemporaryFolder) {
        let spool = try TemporaryFolder()
        // Whether the printer answers: a successful answer to Get-Printer-Attributes, whatever
        // ipptool thinks of the attributes (ippeveprinter repeats those an attributes file sets).
        let answers = spool.path("answers.test")
        try """
            {
                OPERATION Get-Printer-Attributes
                GROUP operation-attributes-tag
                ATTR charset attributes-charset utf-8
                ATTR naturalLanguage attributes-natural-language en
                ATTR uri printer-uri $uri
                STATUS successful-ok
            }

            """.write(toFile: answers, atomically: true, encoding: .utf8)
        // The print command keeps each job's attributes (ippeveprinter hands them over as IPP_*
        // variables), and fails the job when asked to. Counting sheets, it tells ippeveprinter of
        // each copy out (an ATTR line on its standard error), then waits for the test's word.
        let command = spool.path("print-command")
        let sheets = countingSheets ? """
            sheet=1
            while [ "$sheet" -le "${IPP_COPIES:-1}" ]; do
                echo "ATTR: job-impressions-completed=$sheet" >&2
                waited=0
                while [ ! -e "\(spool.url.path)/sheet-$IPP_JOB_ID-$sheet" ] && [ "$waited" -lt 6000 ]; do sleep 0.1; waited=$((waited + 1)); done
                sheet=$((sheet + 1))
            done

            """ : ""
        try "#!/bin/sh\nenv | grep '^IPP_' > \"\(spool.url.path)/attributes-$IPP_JOB_ID\"\ncat \"$1\" > /dev/null\n\(sheets)exit \(failing ? 1 : 0)\n"
            .write(toFile: command, atomically: true, encoding: .utf8)
        chmod(command, 0o755)
        // The paper and the rest, in an attributes file (which takes the formats too: the two
        // options exclude each other).
        var described = ["-f", formats]
        if media != nil || !extra.isEmpty {
            let attributes = spool.path("attributes.conf")
            let paper = media.map { ["ATTR keyword media-supported \($0.joined(separator: ","))", "ATTR keyword media-default \($0[0])",
                                     "ATTR keyword media-ready \($0[0])"] } ?? []
            try (["ATTR mimeMediaType document-format-supported \(formats)"] + paper + extra + [""]).joined(separator: "\n")
                .write(toFile: attributes, atomically: true, encoding: .utf8)
            described = ["-a", attributes]
        }
        var chosen: (Int, ChildProcess.Running)?
        var said = ""
        for candidate in (0..<10).map({ _ in Int.random(in: 20000...45000) }) {
            // Before each start: Avahi may have been stopping as the last one began (the test
            // before ended its printers), which ippeveprinter does not survive.
            try await startDaemons()
            let printer = try ChildProcess.Running("/usr/sbin/ippeveprinter", ["-p", "\(candidate)", "-d", spool.url.path, "-k", "-n", "localhost",
                                                                              "-c", command] + described + ["camctl test printer"])
            // Listening once ipptool gets its attributes; a port taken, or DNS-SD not ready yet on a
            // loaded machine (Avahi still joining the bus), makes it end, and another start is made.
            let listening = await until(hangGuard: .seconds(30)) {
                if printer.hasEnded { return true }
                guard let asked = try? await ChildProcess.run("ipptool", ["-t", "ipp://localhost:\(candidate)/ipp/print", answers]) else { return false }
                return asked.status == 0 || asked.standardOutput.contains("status-code = successful-ok")
            }
            if listening, !printer.hasEnded {
                chosen = (candidate, printer)
                break
            }
            said = printer.errorsSoFar + printer.outputSoFar
            printer.send(SIGKILL)
            _ = await until(hangGuard: .seconds(1)) { false }  // a moment for Avahi before the next start
        }
        guard let (port, printer) = chosen else {
            throw ChildProcess.Failure(message: "ippeveprinter did not start: \(said)")
        }
        return (port, printer, spool)
    }

    /// The documents of the jobs the printer took, oldest first.
    public func documents() throws -> [[UInt8]] {
        try FileManager.default.contentsOfDirectory(atPath: spool.url.path)
            .filter { $0.first?.isNumber == true && !$0.hasSuffix(".prn") }
            .sorted { (Int($0.prefix { $0.isNumber }) ?? 0) < (Int($1.prefix { $0.isNumber }) ?? 0) }
            .map { [UInt8](try Data(contentsOf: spool.url.appendingPathComponent($0))) }
    }

    /// Lets a printer counting sheets go on past sheet `sheet` of job `job`.
    public func releaseSheet(_ sheet: Int, ofJob job: Int) {
        _ = FileManager.default.createFile(atPath: spool.path("sheet-\(job)-\(sheet)"), contents: nil)
    }

    /// Each job's attributes as the printer took them (`media`, `copies`), by
    /// the job's id; a job's are there once it has been printed.
    public func jobAttributes() throws -> [Int: [String: String]] {
        var jobs: [Int: [String: String]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: spool.url.path) where name.hasPrefix("attributes-") {
            guard let id = Int(name.dropFirst("attributes-".count)) else { continue }
            let text = try String(contentsOfFile: spool.path(name), encoding: .utf8)
            jobs[id] = Dictionary(text.split(separator: "\n").compactMap { line -> (String, String)? in
                guard let equals = line.firstIndex(of: "=") else { return nil }
                let key = line[line.index(line.startIndex, offsetBy: 4)..<equals].lowercased().replacingOccurrences(of: "_", with: "-")
                return (key, String(line[line.index(after: equals)...]))
            }, uniquingKeysWith: { first, _ in first })
        }
        return jobs
    }

    deinit {
        printer.send(SIGKILL)
        Self.stopOne()
    }

    /// One printer fewer; the last one stops each daemon the printers started, and removes what
    /// it leaves behind, so the next test does not take it for a running one. Under the lock, so
    /// a printer starting meanwhile either counts before (and they stay) or looks after (and
    /// starts its own).
    private static func stopOne() {
        shared.withLock { shared in
            shared.printers -= 1
            guard shared.printers == 0 else { return }
            for (daemon, leaves) in shared.daemons.reversed() {
                daemon.send(SIGKILL)
                unlink(leaves)
            }
            shared.daemons = []
        }
    }

    private static let busSocket = "/run/dbus/system_bus_socket"
    private static let avahiPIDFile = "/run/avahi-daemon/pid"
}
