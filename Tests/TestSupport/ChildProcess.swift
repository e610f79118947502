import Foundation
import Synchronization

/// Runs programs the tests need: the package's own binaries and tools we did not write.
public struct ChildProcess {
    public struct Result: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
        /// Standard output as bytes, for programs that write files there.
        public var standardOutputBytes = Data()
    }

    /// The folder holding the package's built executables (next to the test binary).
    public static var buildFolder: URL {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: testBinary).deletingLastPathComponent()
    }

    /// What every child is given: the tests' environment, and `CAMCTL_CHECK_BLOCKING=1`, so every
    /// camctl the tests start (directly or through a script) ends at the first blocking call it
    /// makes on Swift's shared threads, naming it, and its test fails.
    public static let environment = ProcessInfo.processInfo.environment.merging(["CAMCTL_CHECK_BLOCKING": "1"]) { $1 }

    /// Runs a built executable of this package by product name, awaiting its end.
    public static func runBuilt(_ name: String, _ arguments: [String], environment: [String: String] = [:],
                                in directory: URL? = nil) async throws -> Result {
        try await run(buildFolder.appendingPathComponent(name).path, arguments, environment: environment, in: directory)
    }

    /// Runs a program found on the PATH or by absolute path, awaiting its end without holding a
    /// thread of Swift's pool (it is waited for on a queue of its own).
    public static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                           in directory: URL? = nil) async throws -> Result {
        try await offThePools { try runToEnd(program, arguments, environment: environment, in: directory) }
    }

    /// Runs a program, blocking the calling thread until it ends: for ``run(_:_:environment:in:)``,
    /// and for what cannot await (the checks of what is installed, which run as the tests are
    /// listed; a fixture made once in a static initializer; a mount's removal as it goes).
    public static func runToEnd(_ program: String, _ arguments: [String], environment: [String: String] = [:],
                         in directory: URL? = nil) throws -> Result {
        let process = Process()
        if program.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [program] + arguments
        }
        process.environment = ChildProcess.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let output = try ChildPipe(), errors = try ChildPipe()
        process.standardOutput = output.forWriting
        process.standardError = errors.forWriting
        process.standardInput = FileHandle.nullDevice
        try process.run()
        output.closeChildEnd()
        errors.closeChildEnd()
        // A child that hangs fails its test instead of hanging the suite.
        let watchdog = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        ChildProcess.helper().asyncAfter(deadline: .now() + .seconds(120), execute: watchdog)
        defer { watchdog.cancel() }
        // Read both pipes to their ends before waiting, so a chatty child never blocks on a full pipe.
        let errorData = DataBox()
        let reading = DispatchGroup()
        ChildProcess.helper().async(group: reading) {
            errorData.data = ChildProcess.readToEnd(errors)
        }
        let outputData = ChildProcess.readToEnd(output)
        reading.wait()
        return Result(status: ChildProcess.exitStatus(of: process),
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData.data, as: UTF8.self),
                      standardOutputBytes: outputData)
    }

    /// Runs blocking work (a child awaited, a server's stop that joins its threads) on a queue of
    /// its own, awaited without holding a thread of Swift's pool.
    public static func offThePools<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            helper().async { continuation.resume(with: Swift.Result { try work() }) }
        }
    }

    /// A queue for reading one of a child's pipes, or for its watchdog. A serial queue of its own
    /// runs on a thread of its own: reading a child never waits for a thread of the shared pool,
    /// which Swift's tasks and the global queues use, and which blocked tests can fill.
    /// How a child ended: its exit code, or the signal that ended it, as Foundation tells them.
    /// Foundation's `Process` learns of an end from SIGCHLD, and on a loaded full run it missed one
    /// (its `waitUntilExit` then waited for ever on a zombie): the child is reaped here too.
    static func exitStatus(of process: Process) -> Int32 {
        let pid = process.processIdentifier
        while true {
            if !process.isRunning { return process.terminationStatus }
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid {
                let signal = status & 0x7F
                return signal == 0 ? (status >> 8) & 0xFF : signal
            }
            usleep(reaped < 0 ? 1000 : 5000)  // reaped by Foundation meanwhile (ECHILD), or still running
        }
    }

    static func helper() -> DispatchQueue {
        DispatchQueue(label: "camctl-tests.child-process")
    }

    /// Everything a pipe's writers write, until they all close it. A read interrupted by a
    /// signal is made again (Foundation's own reader stops the process on that).
    static func readToEnd(_ pipe: ChildPipe, eachChunk: (ArraySlice<UInt8>) -> Void = { _ in }) -> Data {
        let descriptor = pipe.forReading.fileDescriptor
        var data = Data(), chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: chunk[0..<count])
                eachChunk(chunk[0..<count])
            } else if count == 0 || errno != EINTR {
                return data
            }
        }
    }

    /// A program that did not do what a test needed of it.
    public struct Failure: Error {
        public let message: String
        public init(message: String) { self.message = message }
    }

    /// Whether a program is installed: an executable file of that name in a folder of the PATH.
    public static func isInstalled(_ program: String) -> Bool {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.contains { access("\($0)/\(program)", X_OK) == 0 }
    }
}

/// A child's standard output as far as it has come.
private final class OutputSoFar: Sendable {
    let bytes = Mutex<[UInt8]>([])
}

/// Data written by one reader thread and read after the dispatch group that ran it has finished.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}

/// Runs a program from the PATH and returns its standard output.
public func run(_ program: String, _ arguments: [String]) async throws -> String {
    try await ChildProcess.run(program, arguments).standardOutput
}

extension ChildProcess {
    /// A child started without waiting for it, to signal it while it runs.
    ///
    /// `@unchecked Sendable`: what the child writes is stored by its reading queues and read only
    /// after the dispatch group that runs them has finished; the process is otherwise only signalled.
    public final class Running: @unchecked Sendable {
        private let process: Process
        private let output: ChildPipe, errors: ChildPipe
        /// The child's standard input, when it was started with one to write to.
        private let input: ChildPipe?
        private let errorData = DataBox(), outputData = DataBox()
        /// Standard output and error as they come, for a test to wait for a line.
        private let written = OutputSoFar(), errorsWritten = OutputSoFar()
        private let reading = DispatchGroup()

        /// Starts a built executable of this package; with `writingInput`, its standard input is a
        /// pipe that ``write(_:)`` writes to, else `/dev/null`.
        public convenience init(built name: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
                                writingInput: Bool = false) throws {
            try self.init(ChildProcess.buildFolder.appendingPathComponent(name).path, arguments, environment: environment, in: directory,
                          writingInput: writingInput)
        }

        /// Starts a program (a path) without waiting for it.
        public init(_ program: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
                    writingInput: Bool = false) throws {
            process = Process()
            if let directory { process.currentDirectoryURL = directory }
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments
            process.environment = ChildProcess.environment.merging(environment) { $1 }
            (output, errors) = (try ChildPipe(), try ChildPipe())
            process.standardOutput = output.forWriting
            process.standardError = errors.forWriting
            input = writingInput ? try ChildPipe() : nil
            process.standardInput = input?.forReading ?? FileHandle.nullDevice
            try process.run()
            output.closeChildEnd()
            errors.closeChildEnd()
            input?.closeChildEnd(reading: true)
            ChildProcess.helper().async(group: reading) { [output, outputData, written] in
                outputData.data = ChildProcess.readToEnd(output) { chunk in written.bytes.withLock { $0 += chunk } }
            }
            ChildProcess.helper().async(group: reading) { [errors, errorData, errorsWritten] in
                errorData.data = ChildProcess.readToEnd(errors) { chunk in errorsWritten.bytes.withLock { $0 += chunk } }
            }
        }

        /// What the child has written to standard output so far.
        public var outputSoFar: String {
            written.bytes.withLock { String(decoding: $0, as: UTF8.self) }
        }

        /// What the child has written to standard error so far.
        public var errorsSoFar: String {
            errorsWritten.bytes.withLock { String(decoding: $0, as: UTF8.self) }
        }

        /// Awaits the child's end (killing it after `timeout` seconds) without holding a thread of
        /// Swift's pool.
        public func finished(timeout: Double = 60) async -> Result {
            await withCheckedContinuation { continuation in
                ChildProcess.helper().async { continuation.resume(returning: self.finish(timeout: timeout)) }
            }
        }

        /// Awaits the child's standard output containing `text`, at most `timeout` seconds; returns
        /// whether it does. The time-out only catches a child that hangs: a full run starts every
        /// suite at once, and a child's start then takes tens of seconds on two cores.
        public func output(containing text: String, timeout: Double = 120) async -> Bool {
            await awaitText(text, in: { $0.outputSoFar }, timeout: timeout)
        }

        /// Awaits the child's standard error containing `text`, as ``output(containing:timeout:)``.
        public func errors(containing text: String, timeout: Double = 120) async -> Bool {
            await awaitText(text, in: { $0.errorsSoFar }, timeout: timeout)
        }

        private func awaitText(_ text: String, in written: (Running) -> String, timeout: Double) async -> Bool {
            let deadline = ContinuousClock.now + .seconds(timeout)
            while ContinuousClock.now < deadline {
                if written(self).contains(text) { return true }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        /// Writes to the child's standard input (started `writingInput`).
        public func write(_ text: String) {
            signal(SIGPIPE, SIG_IGN)  // a child that has ended fails the write, not the tests
            try? input?.forWriting.write(contentsOf: Data(text.utf8))
        }

        /// Ends the child's standard input (started `writingInput`): it reads to its end.
        public func closeInput() {
            try? input?.forWriting.close()
        }

        /// The child's process id.
        public var processIdentifier: Int32 { process.processIdentifier }

        /// Awaits the child's program blocking or catching `signal` (its `/proc` status says so),
        /// at most `timeout` seconds (a hang guard); returns whether it does. Until the child has
        /// become its program it still has this process's handlers, and a signal then would be
        /// taken by them and lost.
        public func handling(_ signal: Int32, timeout: Double = 60) async -> Bool {
            let bit = UInt64(1) << UInt64(signal - 1)
            let deadline = ContinuousClock.now + .seconds(timeout)
            let program = process.executableURL?.resolvingSymlinksInPath().path
            while ContinuousClock.now < deadline {
                guard let status = ownStatus else { return false }  // it has ended
                let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.processIdentifier)/exe")
                let masks = status.filter { $0.hasPrefix("SigBlk:") || $0.hasPrefix("SigCgt:") }
                    .compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
                if running == program, masks.contains(where: { $0 & bit != 0 }) { return true }
                try? await Task.sleep(for: .milliseconds(1))
            }
            return false
        }

        /// Sends a signal, only while the child is still this process's child: once it has ended
        /// and been reaped, its number may belong to another process, or to one of our own threads.
        public func send(_ signal: Int32) {
            guard process.isRunning, ownStatus != nil else { return }
            kill(process.processIdentifier, signal)
        }

        /// Whether the child has ended.
        public var hasEnded: Bool { !process.isRunning || ownStatus == nil }

        /// The lines of the child's `/proc` status while it is a process whose parent is this one.
        private var ownStatus: [Substring]? {
            let pid = process.processIdentifier
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
            let lines = text.split(separator: "\n")
            guard lines.contains("Tgid:\t\(pid)"), lines.contains("PPid:\t\(getpid())") else { return nil }
            return lines
        }

        /// Waits for the child to end (killing it after `timeout` seconds) and returns what it wrote.
        private func finish(timeout: Double) -> Result {
            try? input?.forWriting.close()
            if reading.wait(timeout: .now() + timeout) == .timedOut {
                send(SIGKILL)
                reading.wait()
            }
            return Result(status: ChildProcess.exitStatus(of: process),
                          standardOutput: String(decoding: outputData.data, as: UTF8.self),
                          standardError: String(decoding: errorData.data, as: UTF8.self),
                          standardOutputBytes: outputData.data)
        }
    }
}

/// A pipe to or from a child, both ends close-on-exec from their making (Foundation's `Pipe` makes
/// them without): a child another test starts at the same moment cannot inherit an end and hold
/// it open, which kept a reader from seeing its child's end for as long as that other child lived.
/// The child gets its end as a standard descriptor (a copy, which is not close-on-exec); the
/// parent closes its copy of that end once the child runs.
final class ChildPipe: @unchecked Sendable {
    // @unchecked Sendable: the handles are set once; each end is used by one thread at a time.
    let forReading: FileHandle
    let forWriting: FileHandle

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard Self.pipe2(&ends, O_CLOEXEC) == 0 else { throw ChildProcess.Failure(message: "no pipe: \(String(cString: strerror(errno)))") }
        forReading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        forWriting = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
    }

    /// glibc's pipe2, which its headers offer only to GNU sources, so Swift's Glibc module lacks it.
    private static let pipe2: @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32 = {
        unsafeBitCast(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2"), to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()

    /// Closes the parent's copy of the child's end: the writing end for the child's output, the
    /// reading end (`reading`) for its input.
    func closeChildEnd(reading: Bool = false) {
        try? (reading ? forReading : forWriting).close()
    }
}
