/// Shell completions for bash, zsh and fish, written from the commands' own tables of options,
/// so they never drift from `--help`.
enum ShellCompletions {
    /// The shells completions are written for.
    enum Shell: String, CaseIterable {
        case bash, zsh, fish
    }

    /// What an option's value completes to.
    enum ValueKind: Equatable {
        /// A file or folder name.
        case path
        /// A folder name.
        case folder
        /// One of these words.
        case words([String])
        /// A camera: `test`, `file:` or a device node.
        case camera
        /// Nothing to offer (a number, a size, a command).
        case free
    }

    /// What the value of `option` completes to, from its placeholder (`PATH`, `off|on|auto`, …).
    static func valueKind(of option: ParsedArguments.Option) -> ValueKind {
        guard let value = option.value else { return .free }
        if option.name == "--device" { return .camera }
        if value == "DIR" { return .folder }
        if ["PATH", "FILE", "PNG"].contains(value) { return .path }
        let words = value.split(separator: "|").map(String.init)
        if words.count > 1, words.allSatisfy({ $0.allSatisfy { $0.isLetter || $0.isNumber } }) { return .words(words) }
        return .free
    }

    /// Every command with its options and the words it takes, as completions offer them.
    static var commands: [(name: String, summary: String, options: [ParsedArguments.Option], words: [String])] {
        Command.all.map { ($0.name, $0.summary, $0.options, $0.words) }
            + [("help", "show a command's options, or the manual with --man", [.init(name: "--man", value: nil)], Command.all.map { $0.name })]
    }

    /// The completion script for `shell`.
    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash: bash
        case .zsh: zsh
        case .fish: fish
        }
    }

    private static var bash: String {
        var lines = [
            "# bash completion for camctl; written by camctl completions bash.",
            "_camctl() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
            "        COMPREPLY=($(compgen -W \"\(commands.map(\.name).joined(separator: " ")) --version\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    case \"${COMP_WORDS[1]}\" in",
        ]
        for command in commands {
            lines.append("    \(command.name))")
            let valued = command.options.filter { $0.value != nil }
            if !valued.isEmpty {
                lines.append("        case \"$prev\" in")
                for option in valued {
                    let names = ([option.name] + (option.short.map { [$0] } ?? [])).joined(separator: "|")
                    let reply: String = switch valueKind(of: option) {
                    case .path: "COMPREPLY=($(compgen -f -- \"$cur\"))"
                    case .folder: "COMPREPLY=($(compgen -d -- \"$cur\"))"
                    case .words(let words): "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\"))"
                    case .camera: "COMPREPLY=($(compgen -W \"test file:\" -- \"$cur\") $(compgen -G \"/dev/video*\" -- \"$cur\"))"
                    case .free: "COMPREPLY=()"
                    }
                    lines.append("        \(names)) \(reply); return ;;")
                }
                lines.append("        esac")
            }
            let words = command.options.map(\.name) + command.words
            lines.append("        COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")) ;;")
        }
        lines += ["    esac", "}", "complete -o default -F _camctl camctl"]
        return lines.joined(separator: "\n") + "\n"
    }

    private static var zsh: String {
        var lines = [
            "#compdef camctl",
            "# zsh completion for camctl; written by camctl completions zsh.",
            "_camctl() {",
            "    local -a commands",
            "    commands=(",
        ]
        lines += commands.map { "        '\($0.name):\(quotedForZsh($0.summary))'" }
        lines += [
            "    )",
            "    if (( CURRENT == 2 )); then",
            "        _describe 'command' commands",
            "        return",
            "    fi",
            "    case $words[2] in",
        ]
        for command in commands {
            lines.append("    \(command.name))")
            var specs = command.options.map { option -> String in
                let action: String = switch valueKind(of: option) {
                case .path: ":\(option.value!):_files"
                case .folder: ":\(option.value!):_files -/"
                case .words(let words): ":\(option.value!):(\(words.joined(separator: " ")))"
                case .camera: ":camera:(test file: /dev/video*(N))"
                case .free: option.value.map { ":\(quotedForZsh($0)): " } ?? ""
                }
                return "'\(option.name)[\(option.name)]\(action)'"
            }
            if !command.words.isEmpty { specs.append("'*:word:(\(command.words.joined(separator: " ")))'") }
            lines.append("        _arguments -s \\")
            lines += specs.map { "            \($0) \\" }
            lines.append("            && return 0 ;;")
        }
        lines += ["    esac", "}", "_camctl \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    private static var fish: String {
        var lines = [
            "# fish completion for camctl; written by camctl completions fish.",
            "complete -c camctl -f",
        ]
        let names = commands.map(\.name).joined(separator: " ")
        for command in commands {
            lines.append("complete -c camctl -n \"not __fish_seen_subcommand_from \(names)\" -a \(command.name) -d '\(quotedForFish(command.summary))'")
        }
        for command in commands {
            let condition = "-n \"__fish_seen_subcommand_from \(command.name)\""
            for option in command.options {
                var line = "complete -c camctl \(condition) -l \(option.name.dropFirst(2))"
                if let short = option.short { line += " -s \(short.dropFirst())" }
                switch valueKind(of: option) {
                case .path: line += " -r -F"
                case .folder: line += " -r -a '(__fish_complete_directories)'"
                case .words(let words): line += " -x -a '\(words.joined(separator: " "))'"
                case .camera: line += " -x -a 'test file: (string match -e video /dev/video*)'"
                case .free: if option.value != nil { line += " -x" }
                }
                lines.append(line)
            }
            if !command.words.isEmpty {
                lines.append("complete -c camctl \(condition) -a '\(command.words.joined(separator: " "))'")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func quotedForZsh(_ text: String) -> String {
        text.replacing("'", with: "'\\''").replacing(":", with: "\\:")
            .replacing("[", with: "\\[").replacing("]", with: "\\]")
    }

    private static func quotedForFish(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
    }
}

/// `camctl completions SHELL`: prints the completion script for bash, zsh or fish.
struct CompletionsCommand: Subcommand {
    static let name = "completions"
    static let synopsis = "camctl completions  bash|zsh|fish"
    static let summary = "print the shell completion script for bash, zsh or fish"
    static let help = """
        Prints a script that completes camctl's commands, options and their values in bash, zsh or
        fish. Install it where the shell looks (see the README), or try it at once with
        source <(camctl completions bash).
        """
    static let options: [ParsedArguments.Option] = []
    static let words = ShellCompletions.Shell.allCases.map(\.rawValue)

    let shell: ShellCompletions.Shell

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals(["SHELL"])
        guard let shell = ShellCompletions.Shell(rawValue: arguments.positionals[0]) else {
            throw CommandFailure("completions are written for bash, zsh or fish, not \"\(arguments.positionals[0])\"", exitCode: .usage)
        }
        self.shell = shell
    }

    func run() async throws(CommandFailure) {
        try Console.result(String(ShellCompletions.script(for: shell).dropLast()))
    }
}
