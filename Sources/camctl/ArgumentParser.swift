import PipelineScript

/// camctl's command-line parser: options declared per command, values read with their type and
/// range, and one precise sentence for every mistake (with a suggestion for a misspelled name).
struct ParsedArguments {
    /// An option a command accepts.
    struct Option {
        let name: String
        /// The text after the name in help (`SECONDS`), or `nil` for a flag.
        let value: String?
        /// A short name (`-o`), if any.
        var short: String? = nil
    }

    /// The command, for messages ("capture has no option --x").
    let command: String
    /// The words that are not options, in order.
    private(set) var positionals: [String] = []
    private var values: [String: [String]] = [:]

    /// Reads `arguments` against the options `command` accepts. `--name=value` and `--name value`
    /// both work; `--` ends the options.
    init(_ arguments: [String], command: String, options: [Option]) throws(CommandFailure) {
        self.command = command
        var remaining = arguments[...]
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            guard !optionsEnded, argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            let (name, inline) = Self.split(argument)
            guard let option = options.first(where: { $0.name == name || $0.short == name }) else {
                let suggestion = Spelling.closest(to: name, among: options.map(\.name)).map { "; did you mean \($0)?" }
                    ?? "; camctl \(command) --help lists its options"
                throw CommandFailure("\(command) has no option \(name)\(suggestion)", exitCode: .usage)
            }
            if option.value == nil {
                guard inline == nil else {
                    throw CommandFailure("\(option.name) takes no value", exitCode: .usage)
                }
                values[option.name, default: []].append("")
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if let next = remaining.first, !next.hasPrefix("--") || next == "-" {
                value = next
                remaining.removeFirst()
            } else {
                throw CommandFailure("\(option.name) needs a value (\(option.value!))", exitCode: .usage)
            }
            guard !value.isEmpty else {
                throw CommandFailure("\(option.name) was given an empty value; it needs \(option.value!)", exitCode: .usage)
            }
            values[option.name, default: []].append(value)
        }
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { values[name] != nil }

    /// The last value given for an option.
    func string(_ name: String) -> String? { values[name]?.last }

    /// Every value given for an option that may repeat.
    func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// A whole number within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandFailure) -> Int? {
        guard let text = string(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw CommandFailure("\(name) \(text) is not a number from \(range.lowerBound) to \(describe(range.upperBound))", exitCode: .usage)
        }
        return number
    }

    /// A number of seconds (fractions allowed) within `range`.
    func seconds(_ name: String, in range: ClosedRange<Double> = 0...86_400) throws(CommandFailure) -> Double? {
        try number(name, in: range, of: "seconds")
    }

    /// A number (fractions allowed) within `range`; `unit` names what it counts, for the message.
    func number(_ name: String, in range: ClosedRange<Double>, of unit: String? = nil) throws(CommandFailure) -> Double? {
        guard let text = string(name) else { return nil }
        guard let number = Double(text), number.isFinite, range.contains(number) else {
            throw CommandFailure("\(name) \(text) is not a number\(unit.map { " of \($0)" } ?? "") from \(describe(range.lowerBound)) "
                + "to \(describe(range.upperBound))", exitCode: .usage)
        }
        return number
    }

    /// One of the words a `RawRepresentable` type accepts.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, as type: T.Type) throws(CommandFailure) -> T? where T.RawValue == String {
        guard let text = string(name) else { return nil }
        guard let value = T(rawValue: text) else {
            let words = T.allCases.map(\.rawValue)
            throw CommandFailure("\(name) \(text) is not one of \(words.dropLast().joined(separator: ", ")) or \(words.last!)", exitCode: .usage)
        }
        return value
    }

    /// Refuses positional words a command does not take, or too few of them.
    func requirePositionals(_ names: [String]) throws(CommandFailure) {
        if positionals.count > names.count {
            throw CommandFailure("\(command) does not take \"\(positionals[names.count])\"; camctl \(command) --help shows how to use it", exitCode: .usage)
        }
        if positionals.count < names.count {
            let given = ([command] + positionals).joined(separator: " ")
            throw CommandFailure("\(given) needs \(names[positionals.count]); camctl \(command) --help shows how to use it", exitCode: .usage)
        }
    }

    /// Refuses two options that cannot go together.
    func refuseTogether(_ first: String, _ second: String) throws(CommandFailure) {
        if flag(first) && flag(second) {
            throw CommandFailure("\(first) and \(second) cannot be used together", exitCode: .usage)
        }
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    private func describe(_ number: some Numeric & CustomStringConvertible) -> String {
        let text = number.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
