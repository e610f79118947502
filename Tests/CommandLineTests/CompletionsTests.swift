import Foundation
import TestSupport
import Testing

/// Shell completions and the manual page, written from the parser's tables: each shell reads its
/// script, completes what the commands accept, and the three agree with each other and the manual.
@Suite("Shell completions and the manual page", .startsPrograms)
struct CompletionsTests {
    static func script(_ shell: String) async throws -> String {
        let result = try await Camctl()("completions", shell)
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput
    }

    /// The commands camctl has, from its help.
    static func commands() async throws -> [String] {
        let help = try await Camctl()("help").standardOutput
        return help.split(separator: "\n").filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Each command's options as one shell's script lists them.
    static func options(in script: String, shell: String) -> Set<String> {
        switch shell {
        case "fish":
            let pattern = /__fish_seen_subcommand_from ([\w-]+)" -l ([\w-]+)/
            return Set(script.matches(of: pattern).map { "\($0.output.1) --\($0.output.2)" })
        default:
            var found = Set<String>(), command = ""
            for line in script.split(separator: "\n") {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if let match = trimmed.wholeMatch(of: /([\w-]+)\)/) { command = String(match.output.1) }
                if trimmed.hasPrefix("COMPREPLY=($(compgen -W \""), trimmed.hasSuffix(";;"), !command.isEmpty {
                    let words = trimmed.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
                    for word in words where word.hasPrefix("--") && word != "--" { found.insert("\(command) \(word)") }
                }
            }
            return found
        }
    }

    @Test("Each shell reads its script without a syntax error", arguments: ["bash", "zsh", "fish"])
    func syntax(shell: String) async throws {
        try #require(ChildProcess.isInstalled(shell), "\(shell) is needed to check its script (CI installs it)")
        let folder = try TemporaryFolder()
        let file = try folder.file("camctl.\(shell)", holding: try await Self.script(shell))
        let checked = try await ChildProcess.run(shell, ["-n", file])
        #expect(checked.status == 0, "\(checked.standardError)")
    }

    @Test("bash completes commands, options, their words and the library's actions")
    func bash() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("camctl.bash", holding: try await Self.script("bash"))
        func complete(_ words: [String]) async throws -> [String] {
            let array = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try await ChildProcess.run("bash", ["-c", "source '\(file)'; COMP_WORDS=(\(array)); COMP_CWORD=\(words.count - 1); _camctl; printf '%s\\n' \"${COMPREPLY[@]}\""])
            return result.standardOutput.split(separator: "\n").map(String.init)
        }
        #expect(try await complete(["camctl", "cap"]) == ["capture"])
        #expect(try await complete(["camctl", "capture", "--flash", ""]) == ["off", "on", "auto"])
        #expect(try await complete(["camctl", "capture", "--prio"]) == ["--prioritize"])
        #expect(try await complete(["camctl", "library", "ex"]) == ["export"])
        #expect(try await complete(["camctl", "completions", ""]) == ["bash", "zsh", "fish"])
        #expect(try await complete(["camctl", "preview", "--device", "te"]) == ["test"])
    }

    @Test("fish completes commands with their summaries, and option values", .enabled(if: ChildProcess.isInstalled("fish")))
    func fish() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.file("camctl.fish", holding: try await Self.script("fish"))
        func complete(_ line: String) async throws -> [String] {
            try await ChildProcess.run("fish", ["-c", "source '\(file)'; complete -C '\(line)'"]).standardOutput.split(separator: "\n").map(String.init)
        }
        #expect(try await complete("camctl boo").first?.hasPrefix("booth\t") == true)
        #expect(Set(try await complete("camctl capture --mirror ")) == ["preview", "photos", "both", "none"])
        #expect(try await complete("camctl run --allow").contains("--allow-raw-io"))
    }

    @Test("bash, fish and the manual page list the same options for every command, and every one is accepted")
    func agreement() async throws {
        let bash = Self.options(in: try await Self.script("bash"), shell: "bash")
        let fish = Self.options(in: try await Self.script("fish"), shell: "fish")
        #expect(!bash.isEmpty && bash == fish, "only in bash: \(bash.subtracting(fish)); only in fish: \(fish.subtracting(bash))")
        let manual = try await Camctl()("help", "--man").standardOutput
        for pair in bash {
            let option = String(pair.split(separator: " ")[1])
            #expect(manual.contains(option.replacingOccurrences(of: "-", with: "\\-")), "\(option) is in the manual")
        }
        let commands = try await Self.commands()
        #expect(commands.contains("capture") && commands.contains("completions"))
        for command in commands where command != "help" {
            #expect(bash.contains { $0.hasPrefix(command + " ") } || command == "completions", "\(command) has options in the completions")
            #expect(manual.contains(".SS \(command.replacingOccurrences(of: "-", with: "\\-"))"), "\(command) has a section in the manual")
        }
        // Every option listed is one the command accepts: none is refused as unknown.
        for pair in bash.sorted() {
            let parts = pair.split(separator: " ").map(String.init)
            let result = try await Camctl()(parts[0], parts[1], "--help")
            #expect(!result.standardError.contains("has no option"), "\(pair): \(result.standardError)")
        }
    }

    @Test("The manual page is troff that groff reads without a warning, with every exit code")
    func manual() async throws {
        let page = try await Camctl()("help", "--man")
        #expect(page.status == 0 && page.standardOutput.hasPrefix(".TH CAMCTL 1"))
        let folder = try TemporaryFolder()
        try Data(page.standardOutput.utf8).write(to: URL(fileURLWithPath: folder.path("camctl.1")))
        try #require(ChildProcess.isInstalled("groff"), "groff is needed to check the page (CI installs it)")
        let checked = try await ChildProcess.run("groff", ["-man", "-Tutf8", "-ww", "-z", folder.path("camctl.1")])
        #expect(checked.status == 0 && checked.standardError.isEmpty, "\(checked.standardError)")
        let rendered = try await ChildProcess.run("groff", ["-man", "-Tutf8", folder.path("camctl.1")]).standardOutput
        for code in ["64", "65", "69", "70", "73", "74", "77", "130"] {
            #expect(rendered.contains(code), "exit code \(code)")
        }
    }
}
