import Foundation

/// Repeated measurements of one figure: median and range.
struct Measurement {
    let samples: [Double]

    var median: Double {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var range: ClosedRange<Double> { samples.min()!...samples.max()! }

    /// `123.4 (120.1–125.0)`.
    func formatted(_ digits: Int = 1) -> String {
        let format = "%.\(digits)f"
        return "\(String(format: format, median)) (\(String(format: format, range.lowerBound))–\(String(format: format, range.upperBound)))"
    }
}

/// One row of the table: camctl's figure, the reference's, and their ratio.
struct BenchmarkRow {
    let name: String
    let unit: String
    let camctl: Measurement
    let reference: Measurement
    let referenceName: String

    /// What issue 7 asks of this row, if anything.
    var goal: Goal?

    /// camctl relative to the reference, so that above 1 means camctl does more (or takes longer).
    var ratio: Double { camctl.median / reference.median }
}

/// A target a row must reach, and whether it did.
struct Goal {
    /// The target in words, such as "≤ 1.2".
    let statement: String
    let isMet: Bool

    static func ratio(of row: BenchmarkRow, atMost bound: Double) -> Goal {
        Goal(statement: "≤ \(bound)", isMet: row.ratio <= bound)
    }

    static func ratio(of row: BenchmarkRow, atLeast bound: Double) -> Goal {
        Goal(statement: "≥ \(bound)", isMet: row.ratio >= bound)
    }
}

extension BenchmarkRow {
    /// The row with its goal: a bound on the ratio.
    func goal(ratioAtMost bound: Double) -> BenchmarkRow {
        var row = self
        row.goal = .ratio(of: self, atMost: bound)
        return row
    }

    func goal(ratioAtLeast bound: Double) -> BenchmarkRow {
        var row = self
        row.goal = .ratio(of: self, atLeast: bound)
        return row
    }

    /// The row with a goal of its own.
    func goal(_ statement: String, met isMet: Bool) -> BenchmarkRow {
        var row = self
        row.goal = Goal(statement: statement, isMet: isMet)
        return row
    }
}

/// Measures wall-clock time.
func measureSeconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    return (ContinuousClock.now - start).seconds
}

/// A program ready to run, its output thrown away.
func quietProcess(_ program: String, _ arguments: [String]) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    return process
}

/// Runs a program to its end (with `environment` added to this one's) and returns how long it took.
func timeProcess(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Double {
    let process = quietProcess(program, arguments)
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let start = ContinuousClock.now
    try process.run()
    process.waitUntilExit()
    let elapsed = ContinuousClock.now - start
    guard process.terminationStatus == 0 else {
        throw BenchmarkFailure("\(program) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return elapsed.seconds
}

/// Starts a program, returns how long it took to write its first bytes to `path`, and kills it.
func timeToFirstBytes(_ program: String, _ arguments: [String], in path: String) throws -> Double {
    try? FileManager.default.removeItem(atPath: path)
    let process = quietProcess(program, arguments)
    let start = ContinuousClock.now
    try process.run()
    defer {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
    var status = stat()
    while stat(path, &status) != 0 || status.st_size == 0 {
        guard process.isRunning, ContinuousClock.now - start < .seconds(10) else {
            throw BenchmarkFailure("\(program) \(arguments.joined(separator: " ")) wrote nothing to \(path)")
        }
        usleep(500)
    }
    return (ContinuousClock.now - start).seconds
}

struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    /// The duration in seconds, with its fraction.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Runs `body` with a new temporary folder, removed afterwards.
func withScratchFolder<Result>(_ body: (String) async throws -> Result) async throws -> Result {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("camctl-bench-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}

/// What a measuring script of `scripts/` prints, decoded from its one JSON object: run by Debian's
/// Python unless another `python` is named, with `environment` added to this process's.
func runProbe<Figures: Decodable>(_ script: String, _ arguments: [String], as: Figures.Type, python: String = "/usr/bin/python3",
                                  environment: [String: String] = [:]) throws -> Figures {
    try JSONDecoder().decode(Figures.self, from: try programOutput(python, ["scripts/" + script] + arguments, environment: environment))
}

/// What a program prints on its standard output, run to its end with `environment` added to this
/// process's; a failure when it does not end well.
func programOutput(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchmarkFailure("\(program) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return data
}
