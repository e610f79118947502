/// A word of a description file and where it stands.
struct Token: Equatable {
    enum Kind: Equatable {
        case word
        /// A "quoted string", escapes resolved.
        case string
        /// `$name`
        case variable
        case openBrace, closeBrace, equals
    }

    let kind: Kind
    let text: String
    let line: Int
    let column: Int

    /// The token as a person would quote it in a message (long ones shortened).
    var quoted: String {
        let shown = text.count > 40 ? String(text.prefix(37)) + "…" : text
        switch kind {
        case .variable: return "$\(shown)"
        case .string: return "\"\(shown)\""
        default: return "\"\(shown)\""
        }
    }
}

/// Splits one line into tokens; a `#` outside a string starts a comment.
enum Lexer {
    static func tokens(of line: Substring, number: Int) -> Result<[Token], ScriptError> {
        var tokens: [Token] = []
        var characters = Array(line)
        if characters.last == "\r" { characters.removeLast() }
        var index = 0
        func error(_ column: Int, _ message: String) -> Result<[Token], ScriptError> {
            .failure(ScriptError(line: number, column: column, message))
        }
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character == " " || character == "\t" { index += 1; continue }
            if character == "#" { break }
            switch character {
            case "{": tokens.append(Token(kind: .openBrace, text: "{", line: number, column: column)); index += 1
            case "}": tokens.append(Token(kind: .closeBrace, text: "}", line: number, column: column)); index += 1
            case "=": tokens.append(Token(kind: .equals, text: "=", line: number, column: column)); index += 1
            case "\"":
                var text = ""
                index += 1
                var closed = false
                while index < characters.count {
                    let next = characters[index]
                    if next == "\\", index + 1 < characters.count {
                        text.append(characters[index + 1])
                        index += 2
                        continue
                    }
                    index += 1
                    if next == "\"" { closed = true; break }
                    text.append(next)
                }
                guard closed else { return error(column, "this string is not closed; expected a \" before the end of the line") }
                tokens.append(Token(kind: .string, text: text, line: number, column: column))
            case "$":
                var name = ""
                index += 1
                while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" {
                    name.append(characters[index])
                    index += 1
                }
                guard !name.isEmpty else { return error(column, "$ must be followed by a parameter name, such as $shots") }
                tokens.append(Token(kind: .variable, text: name, line: number, column: column))
            default:
                if Self.isControl(character), let code = character.asciiValue {
                    return error(column, "a control character (code \(code)) is not allowed; the file must be text")
                }
                var word = ""
                while index < characters.count, !" \t#{}=\"".contains(characters[index]), !Self.isControl(characters[index]) {
                    word.append(characters[index])
                    index += 1
                }
                tokens.append(Token(kind: .word, text: word, line: number, column: column))
            }
        }
        return .success(tokens)
    }

    /// Whether a character is an ASCII control character (a lone CR, ESC, DEL, …), which no word holds.
    static func isControl(_ character: Character) -> Bool {
        character.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false
    }
}
