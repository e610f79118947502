import Foundation
import Synchronization

/// The README's Swift examples against the tests that run them. A test runs its own copy of an
/// example, marked by the lines `// README: begin` and `// README: end` in its source; the copy
/// must be the README's code line for line, byte for byte once each side's common indentation is
/// taken away, but for the few changes a test must make (a file in a temporary folder, a sink
/// without a display, a shorter countdown), which it writes out and each of which must be found
/// exactly once. So the copy cannot drift from the README: a change to either side that the
/// other lacks fails the test. (Compiling the README's own text at test time would need the
/// package's modules and C libraries linked into a program of its own, minutes on a small machine.)
public enum ReadmeCode {
    /// The repository's README.
    public static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md").path

    /// A change a test makes to the README's code: `readme` as the README has it, `copy` as the test runs it.
    public struct Change: Sendable {
        public let readme: String
        public let copy: String

        public init(_ readme: String, _ copy: String) {
            (self.readme, self.copy) = (readme, copy)
        }
    }

    /// What keeps the copy in `file` from being the `number`th Swift block under the README's
    /// `heading` with `changes` made: one sentence each; none when it is.
    public static func differences(heading: String, block number: Int = 1, copyIn file: String,
                                   changes: [Change]) throws -> [String] {
        let source = try String(contentsOfFile: file, encoding: .utf8)
        guard var readmeCode = try block(under: heading, number: number) else {
            return ["README.md has no Swift block \(number) under \"\(heading)\""]
        }
        guard let copy = marked(in: source) else {
            return ["\(file) marks no copy between // README: begin and // README: end"]
        }
        var problems: [String] = []
        // A function cannot import: the README's imports are the test file's own.
        let imports = readmeCode.filter { $0.hasPrefix("import ") }
        readmeCode.removeAll { $0.hasPrefix("import ") }
        while readmeCode.first?.allSatisfy(\.isWhitespace) == true { readmeCode.removeFirst() }  // the blank line after the imports
        let sourceLines = Set(source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        for line in imports where !sourceLines.contains(line) {
            problems.append("the README imports what the test does not: \(line)")
        }
        var text = dedented(readmeCode).joined(separator: "\n")
        for change in changes {
            let found = text.components(separatedBy: change.readme).count - 1
            guard found == 1 else {
                problems.append("the change of \"\(change.readme)\" is found \(found) times in the README's code, not once")
                continue
            }
            text = text.replacingOccurrences(of: change.readme, with: change.copy)
        }
        let expected = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let actual = dedented(copy)
        // The first line that differs: those after it would differ too if one was added or lost.
        if let index = (0..<max(expected.count, actual.count)).first(where: { index in
            (index < expected.count ? expected[index] : nil) != (index < actual.count ? actual[index] : nil)
        }) {
            let wanted = index < expected.count ? "\"\(expected[index])\"" : "nothing more"
            let found = index < actual.count ? "\"\(actual[index])\"" : "nothing more"
            problems.append("line \(index + 1) of the copy is \(found) where the README's code makes it \(wanted)")
        }
        return problems
    }

    /// The lines of the `number`th ```swift block after the line `heading`, before the next heading
    /// of its level or above; `nil` when there is none.
    static func block(under heading: String, number: Int) throws -> [String]? {
        let lines = try String(contentsOfFile: readme, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: heading) else { return nil }
        let level = heading.prefix { $0 == "#" }.count
        var (seen, fenced) = (0, false)
        for index in (start + 1)..<lines.count {
            let line = lines[index]
            if line.hasPrefix("```") {
                if !fenced, line == "```swift" {
                    seen += 1
                    if seen == number {
                        guard let end = lines[(index + 1)...].firstIndex(of: "```") else { return nil }
                        return Array(lines[(index + 1)..<end])
                    }
                }
                fenced.toggle()
                continue
            }
            let hashes = line.prefix { $0 == "#" }.count
            if !fenced, hashes > 0, hashes <= level, line.dropFirst(hashes).hasPrefix(" ") { return nil }  // the next section
        }
        return nil
    }

    /// The lines between `// README: begin` and `// README: end`.
    static func marked(in source: String) -> [String]? {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        guard let begin = trimmed.firstIndex(where: { $0.hasPrefix("// README: begin") }),
              let end = trimmed[begin...].firstIndex(of: "// README: end") else { return nil }
        return Array(lines[(begin + 1)..<end])
    }

    /// The lines without the indentation they all share (blank lines aside) or trailing spaces.
    static func dedented(_ lines: [String]) -> [String] {
        let stripped = lines.map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
        let indentation = stripped.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return stripped.map { String($0.dropFirst(min(indentation, $0.prefix { $0 == " " }.count))) }
    }

    /// What an example printed, each call's items as text: a test's local `print` shadows Swift's
    /// within the example, so the README's own `print` lines run and the test reads their words.
    public final class Printed: Sendable {
        private let calls = Mutex<[[String]]>([])

        public init() {}

        public func append(_ items: [Any]) {
            let words = items.map { "\($0)" }
            calls.withLock { $0.append(words) }
        }

        public var lines: [[String]] { calls.withLock { $0 } }
    }
}
