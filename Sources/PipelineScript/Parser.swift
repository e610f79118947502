/// Reads description files: a line per setting or step, `{ … }` blocks, `param` defaults that
/// the caller may override, `#` comments. Every mistake is collected with its line and column; parsing
/// never stops at the first, and never fails on any input except by reporting it.
public enum Parser {
    /// The words that start a setting.
    enum Setting: String, CaseIterable {
        case camera, resolution, preview, codec, library, output, source, filter, param
    }
    /// The words that start a step.
    enum Step: String, CaseIterable {
        case countdown, capture, burst, wait, `repeat`, timelapse, `switch`, pause, resume, compose, review, print, printout, record, set
    }

    static let settings = Setting.allCases.map(\.rawValue)
    static let steps = Step.allCases.map(\.rawValue)

    /// A raw gst-launch fragment with the place it was written, for errors found when GStreamer reads it.
    public struct Fragment: Sendable, Equatable {
        public let text: String
        public let line: Int
        public let column: Int
        /// Whether it is the `source` (the camera) rather than a `filter` that frames pass through.
        public let isSource: Bool

        public init(text: String, line: Int, column: Int, isSource: Bool = false) {
            (self.text, self.line, self.column, self.isSource) = (text, line, column, isSource)
        }
    }

    /// The parsed script and the places of its raw fragments (`source`, then `filter`s in order).
    public struct Result: Sendable, Equatable {
        public let script: Script
        public let fragments: [Fragment]
    }

    /// How deep `repeat` blocks may nest; a deeper one is refused at its place.
    public static let maximumNesting = 32
    /// The mistakes a spelling suggestion is looked for in (the first; no front end lists more):
    /// a file of a hundred thousand mistakes is read in time for its length, not its length times
    /// the vocabulary.
    static let suggestedMistakes = 100

    /// Parses a file's bytes, with `overrides` replacing `param` defaults (an override that names
    /// no param is the caller's to report: see ``Script/parameters``). Lines end with LF or CRLF.
    ///
    /// - Throws: ``ScriptErrors`` with every mistake, in file order.
    public static func parse(_ data: [UInt8], overrides: [String: String] = [:],
                             image: ImageVocabulary = .none) throws(ScriptErrors) -> Result {
        var state = State(overrides: overrides, image: image)
        guard let text = String(validating: data, as: UTF8.self) else {
            let (line, column) = firstInvalidUTF8(in: data)
            throw ScriptErrors(errors: [ScriptError(line: line, column: column, "this is not UTF-8 text; a description file must be text")])
        }
        var number = 0
        // A byte-order mark some editors put first is no part of the first word.
        let body = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)
        // "\r\n" is one Character in Swift, so CRLF lines are split as such.
        for line in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            switch Lexer.tokens(of: line, number: number) {
            case .failure(let error): state.errors.append(error)
            case .success(let tokens) where !tokens.isEmpty: state.statement(tokens)
            case .success: continue
            }
        }
        state.finish(lines: number)
        guard state.errors.isEmpty else { throw ScriptErrors(errors: state.errors) }
        return Result(script: state.script, fragments: state.fragments)
    }

    private static func firstInvalidUTF8(in data: [UInt8]) -> (Int, Int) {
        var line = 1, column = 1, index = 0
        while index < data.count {
            let byte = data[index]
            let length = byte < 0x80 ? 1 : byte >> 5 == 0b110 ? 2 : byte >> 4 == 0b1110 ? 3 : byte >> 3 == 0b11110 ? 4 : 0
            guard length > 0, index + length <= data.count,
                  String(validating: data[index..<index + length], as: UTF8.self) != nil else { return (line, column) }
            if byte == 0x0A { line += 1; column = 1 } else { column += 1 }
            index += length
        }
        return (line, column)
    }

    /// What the parser knows while going through the lines.
    private struct State {
        var script = Script()
        var errors: [ScriptError] = []
        var fragments: [Fragment] = []
        let overrides: [String: String]
        let image: ImageVocabulary
        /// Open blocks: the `repeat` token and its count, and the steps gathered so far. A block
        /// refused for nesting too deep is still tracked, so its } matches, but never kept.
        var blocks: [(opener: Token, count: Int, steps: [Script.Step], isRefused: Bool)] = []
        var sawStep = false

        init(overrides: [String: String], image: ImageVocabulary) {
            self.overrides = overrides
            self.image = image
        }

        mutating func statement(_ tokens: [Token]) {
            let head = tokens[0]
            if head.kind == .closeBrace {
                guard tokens.count == 1 else { return fail(tokens[1], "} stands on a line of its own; expected nothing after it") }
                guard let block = blocks.popLast() else { return fail(head, "this } closes no block; expected a repeat … { before it") }
                if !block.isRefused { add(.repeatBlock(count: block.count, steps: block.steps)) }
                return
            }
            guard head.kind == .word else {
                return fail(head, "a line starts with a setting or a step; expected a word such as capture, not \(head.quoted)")
            }
            let arguments = Array(tokens.dropFirst())
            let namesFilters = head.text == "filter" && arguments.first.map { $0.kind != .string } == true
            if let word = ImageVocabulary.Word(rawValue: head.text), word != .filter || namesFilters {
                imageWord(word, head, arguments)
            } else if let word = Setting(rawValue: head.text) {
                guard blocks.isEmpty else { return fail(head, "\(head.text) is a setting; settings go outside repeat blocks") }
                setting(word, head, arguments)
            } else if let word = Step(rawValue: head.text) {
                step(word, head, arguments)
            } else {
                if errors.count < Parser.suggestedMistakes,
                   let suggestion = Spelling.closest(to: head.text, among: Parser.settings + Parser.steps + ImageVocabulary.words) {
                    return fail(head, "unknown step \(head.quoted); did you mean \(suggestion)?")
                }
                fail(head, "unknown step \(head.quoted); expected a setting (\(Parser.settings.joined(separator: ", "))) "
                    + "or a step (\(Parser.steps.joined(separator: ", ")))")
            }
        }

        // MARK: Settings

        mutating func setting(_ word: Setting, _ head: Token, _ arguments: [Token]) {
            var session = script.session
            switch word {
            case .param:
                guard arguments.count == 3, arguments[0].kind == .word, arguments[1].kind == .equals,
                      [.word, .string].contains(arguments[2].kind) else {
                    return fail(arguments.first ?? head, "a param is written param NAME = VALUE, such as param shots = 4")
                }
                let name = arguments[0].text
                guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    return fail(arguments[0], "\(arguments[0].quoted) is not a param name; use letters, digits and _")
                }
                guard script.parameters[name] == nil else { return fail(arguments[0], "param \(name) is already set above") }
                script.parameters[name] = overrides[name] ?? arguments[2].text
                return
            case .camera:
                guard let value = single(head, arguments, "a camera name, such as test or /dev/video0") else { return }
                session.camera = value
            case .resolution:
                guard let value = single(head, arguments, "WIDTHxHEIGHT[@FPS] or a preset (photo, high, medium, low)") else { return }
                session.resolution = value
            case .preview:
                // `preview SINK fullscreen`: the sink filling the screen (a kiosk).
                let fills = arguments.count == 2 && arguments[1].text == "fullscreen"
                guard let value = single(head, fills ? [arguments[0]] : arguments,
                                         "a sink such as autovideosink, ximagesink or fakesink (then fullscreen to fill the screen), or none") else { return }
                guard !(fills && value == "none") else { return fail(arguments[1], "preview none shows nothing to fill the screen with") }
                session.preview = value == "none" ? nil : value
                session.previewFillsScreen = fills
            case .codec:
                guard let first = arguments.first, [1, 3].contains(arguments.count) else {
                    return fail(arguments.first ?? head, "codec is jpeg or hevc, optionally followed by quality N")
                }
                guard let codec = resolve(first) else { return }
                guard ["jpeg", "hevc"].contains(codec) else { return fail(first, "codec is jpeg or hevc, not \(first.quoted)") }
                session.codec = codec
                if arguments.count == 3 {
                    guard arguments[1].text == "quality" else {
                        return fail(arguments[1], "after the codec, expected quality N with N from 1 to 100")
                    }
                    guard let quality = integer(arguments[2], in: 1...100) else { return }
                    session.quality = quality
                }
            case .library:
                guard let value = single(head, arguments, "a folder, default, or none") else { return }
                session.library = value == "none" ? .none : value == "default" ? .standard : .folder(value)
            case .output:
                guard let value = single(head, arguments, "a path or pattern, such as \"shot-%d.jpg\"") else { return }
                session.output = value
            case .source, .filter:
                guard let value = single(head, arguments, "a gst-launch fragment in quotes, such as \"videobalance saturation=0\"") else { return }
                let fragment = arguments[0]
                guard fragment.kind == .string else {
                    return fail(fragment, "\(head.text) takes a gst-launch fragment in quotes; expected \"…\"")
                }
                let trimmed = String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
                guard !trimmed.isEmpty, !trimmed.hasPrefix("!"), !trimmed.hasSuffix("!") else {
                    return fail(fragment, "the fragment \(fragment.quoted) is not elements joined by !; expected something like \"videoflip method=horizontal-flip\"")
                }
                if word == .source {
                    guard session.source == nil else { return fail(head, "a source is already set above; a file has one") }
                    session.source = trimmed
                    fragments.insert(Fragment(text: trimmed, line: fragment.line, column: fragment.column, isSource: true), at: 0)
                } else {
                    session.filters.append(trimmed)
                    fragments.append(Fragment(text: trimmed, line: fragment.line, column: fragment.column))
                }
            }
            script.session = session
        }

        // MARK: Image words

        /// An image word: a setting before the first step, a step after it.
        mutating func imageWord(_ word: ImageVocabulary.Word, _ head: Token, _ arguments: [Token]) {
            guard let change = imageChange(word, head, arguments) else { return }
            if sawStep || !blocks.isEmpty {
                add(.image(change))
            } else {
                script.session.image.append(change)
            }
        }

        mutating func imageChange(_ word: ImageVocabulary.Word, _ head: Token, _ arguments: [Token]) -> ImageChange? {
            guard !image.filters.isEmpty else {
                fail(head, "\(head.text) is not available here; expected a setting or a step")
                return nil
            }
            switch word {
            case .filter:
                var names: [String] = []
                for argument in arguments {
                    guard let name = resolve(argument) else { return nil }
                    guard image.filters.contains(name) else {
                        if errors.count < Parser.suggestedMistakes, let closest = Spelling.closest(to: name, among: image.filters) {
                            fail(argument, "\(argument.quoted) is not a filter; did you mean \(closest)?")
                        } else {
                            fail(argument, "\(argument.quoted) is not a filter", remedy: .listFilters)
                        }
                        return nil
                    }
                    names.append(name)
                }
                return .filters(names)
            case .brightness, .contrast, .saturation, .hue:
                guard arguments.count == 1 else { fail(arguments.first ?? head, "\(head.text) takes one number"); return nil }
                return number(arguments[0], for: head.text).map { .adjustment(head.text, $0) }
            case .zoom:
                guard [1, 3].contains(arguments.count), arguments.count == 1 || arguments[1].text == "at" else {
                    fail(arguments.first ?? head, "a zoom is written zoom FACTOR, or zoom FACTOR at X,Y with X and Y from 0 to 1")
                    return nil
                }
                guard let factor = number(arguments[0], for: "zoom") else { return nil }
                guard arguments.count == 3 else { return .zoom(factor, centerX: nil, centerY: nil) }
                guard let text = resolve(arguments[2]) else { return nil }
                let parts = text.split(separator: ",").compactMap { Double($0) }
                guard parts.count == 2, parts.allSatisfy({ (0...1).contains($0) }) else {
                    fail(arguments[2], "\(arguments[2].quoted) is not X,Y with both from 0 to 1, such as 0.5,0.5 for the middle")
                    return nil
                }
                return .zoom(factor, centerX: parts[0], centerY: parts[1])
            case .aspect:
                guard let value = single(head, arguments, "W:H such as 4:3, 16:9, 3:2 or 1:1, or camera") else { return nil }
                if value == "camera" { return .aspect(nil) }
                let sides = value.split(separator: ":").compactMap { Int($0) }
                guard sides.count == 2, sides.allSatisfy({ $0 > 0 }) else {
                    fail(arguments[0], "\(arguments[0].quoted) is not an aspect ratio; expected W:H such as 4:3, 16:9, 3:2 or 1:1, or camera")
                    return nil
                }
                return .aspect(value)
            case .mirror:
                guard let value = single(head, arguments, "preview, photos, both or none") else { return nil }
                guard ["preview", "photos", "both", "none"].contains(value) else {
                    fail(arguments[0], "mirror takes preview, photos, both or none, not \(arguments[0].quoted)")
                    return nil
                }
                return .mirror(value)
            case .overlay:
                guard let value = single(head, arguments, "a PNG file, such as \"frame.png\", or none") else { return nil }
                return .overlay(value == "none" ? nil : value)
            case .caption, .stamp:
                return textWords(head, arguments).map { .text($0, stamp: word == .stamp) }
            case .background:
                return backgroundWords(head, arguments).map { .background($0) }
            case .rotate:
                let usage = "rotate takes 0, 90, 180 or 270, and pixels to turn the photos' pixels"
                guard [1, 2].contains(arguments.count), arguments.count == 1 || arguments[1].text == "pixels" else {
                    fail(arguments.count == 2 ? arguments[1] : arguments.first ?? head, usage)
                    return nil
                }
                guard let degrees = integer(arguments[0], in: 0...270) else { return nil }
                guard degrees % 90 == 0 else { fail(arguments[0], usage); return nil }
                return .rotate(degrees, pixels: arguments.count == 2)
            }
        }

        /// `"TEXT" [at PLACE] [size PERCENT] [font FAMILY] [color COLOR]`, or `none` (`.some(nil)`);
        /// `nil` when it is wrong (the failure noted).
        mutating func textWords(_ head: Token, _ arguments: [Token]) -> TextWords?? {
            let usage = "\(head.text) \(head.text == "stamp" ? "\"%H:%M:%S\"" : "\"TEXT\"") [at PLACE] [size PERCENT] [font FAMILY] [color COLOR], or \(head.text) none"
            guard let first = arguments.first, let words = resolve(first) else {
                if arguments.isEmpty { fail(head, "\(head.text) takes its words: \(usage)") }
                return nil
            }
            if words == "none", first.kind != .string, arguments.count == 1 { return .some(nil) }
            guard !words.isEmpty else { fail(first, "\(head.text) takes words that are not empty: \(usage)"); return nil }
            var text = TextWords(words: words)
            guard let pairs = optionPairs(arguments.dropFirst(), allowed: TextWords.options, head: head, usage: usage) else { return nil }
            for (option, value) in pairs {
                guard let resolved = resolve(value) else { return nil }
                switch option {
                case "at":
                    guard image.textPlaces.contains(resolved) else {
                        fail(value, "\(value.quoted) is not a place; use one of " + image.textPlaces.joined(separator: ", "))
                        return nil
                    }
                    text.place = resolved
                case "size":
                    guard let size = number(value, for: "text size") else { return nil }
                    text.size = size
                case "font": text.font = resolved
                default: text.color = resolved
                }
            }
            return text
        }

        /// `PICTURE [key COLOR] [tolerance DEGREES] [softness N]`, or `none` (`.some(nil)`); `nil` when
        /// it is wrong (the failure noted).
        mutating func backgroundWords(_ head: Token, _ arguments: [Token]) -> BackgroundWords?? {
            let usage = "background PICTURE [key green|blue|COLOR] [tolerance DEGREES] [softness N], or background none"
            guard let first = arguments.first, let picture = resolve(first) else {
                if arguments.isEmpty { fail(head, "background takes a picture: \(usage)") }
                return nil
            }
            if picture == "none", first.kind != .string, arguments.count == 1 { return .some(nil) }
            guard !picture.isEmpty else { fail(first, "background takes a picture's path: \(usage)"); return nil }
            var background = BackgroundWords(picture: picture)
            guard let pairs = optionPairs(arguments.dropFirst(), allowed: BackgroundWords.options, head: head, usage: usage) else { return nil }
            for (option, value) in pairs {
                switch option {
                case "key": guard let key = resolve(value) else { return nil }; background.key = key
                case "tolerance": guard let degrees = number(value, for: "tolerance") else { return nil }; background.tolerance = degrees
                default: guard let softness = number(value, for: "softness") else { return nil }; background.softness = softness
                }
            }
            return background
        }

        /// `OPTION VALUE …` pairs, each option one of `allowed`; `nil` when one is not (the failure noted).
        mutating func optionPairs(_ arguments: ArraySlice<Token>, allowed: [String], head: Token, usage: String) -> [(option: String, value: Token)]? {
            var pairs: [(option: String, value: Token)] = []
            var index = arguments.startIndex
            while index < arguments.endIndex {
                let option = arguments[index]
                guard allowed.contains(option.text), index + 1 < arguments.endIndex else {
                    fail(option, allowed.contains(option.text) ? "\(option.text) takes a value: \(usage)" : "\(head.text) has no option \(option.quoted); \(usage)")
                    return nil
                }
                pairs.append((option.text, arguments[index + 1]))
                index += 2
            }
            return pairs
        }

        /// A number within the range the vocabulary gives the word.
        mutating func number(_ token: Token, for word: String) -> Double? {
            guard let text = resolve(token) else { return nil }
            let range = image.ranges[word] ?? -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
            guard let value = Double(text), value.isFinite, range.contains(value) else {
                fail(token, "\(token.quoted)\(token.kind == .variable ? " (\(text))" : "") is not a number from "
                    + "\(Self.describe(range.lowerBound)) to \(Self.describe(range.upperBound)) for \(word)")
                return nil
            }
            return value
        }

        static func describe(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }

        // MARK: Steps

        mutating func step(_ word: Step, _ head: Token, _ arguments: [Token]) {
            sawStep = true
            switch word {
            case .countdown, .wait:
                guard arguments.count == 1 else {
                    return fail(arguments.first ?? head, "\(head.text) takes a number of seconds, such as \(head.text) 3")
                }
                guard let seconds = seconds(arguments[0]) else { return }
                add(word == .wait ? .wait(seconds: seconds) : .countdown(seconds: seconds))
            case .capture:
                var options = Script.CaptureOptions()
                var index = 0
                while index < arguments.count {
                    let option = arguments[index]
                    switch resolve(option) {
                    case "jpeg"?, "hevc"?: options.codec = resolve(option)
                    case "quality"?:
                        guard index + 1 < arguments.count else {
                            return fail(option, "quality takes a number from 1 to 100, such as quality 90")
                        }
                        guard let quality = integer(arguments[index + 1], in: 1...100) else { return }
                        options.quality = quality
                        index += 1
                    case "rotate"?:
                        guard index + 1 < arguments.count else { return fail(option, "rotate takes 0, 90, 180 or 270") }
                        guard let degrees = integer(arguments[index + 1], in: 0...270) else { return }
                        guard degrees % 90 == 0 else { return fail(arguments[index + 1], "rotate takes 0, 90, 180 or 270") }
                        options.rotation = degrees
                        index += 1
                    default:
                        return fail(option, "capture has no option \(option.quoted); expected jpeg, hevc, quality N or rotate N")
                    }
                    index += 1
                }
                add(.capture(options))
            case .burst:
                guard arguments.count == 1 else {
                    return fail(arguments.first ?? head, "burst takes a number of photos from 1 to 100000, such as burst 10")
                }
                guard let count = integer(arguments[0], in: 1...100_000) else { return }
                add(.burst(count: count))
            case .repeat:
                guard arguments.count == 2, arguments[1].kind == .openBrace else {
                    return fail(arguments.first ?? head, "a repeat is written repeat N { with N from 1 to 100000, its steps on the lines below, and } on a line of its own")
                }
                // A bad count is reported, and the block still opens, so its } is not an error too.
                let count = integer(arguments[0], in: 1...100_000) ?? 1
                let tooDeep = blocks.count >= Parser.maximumNesting
                if tooDeep, !blocks.last!.isRefused {
                    fail(head, "repeat blocks nest at most \(Parser.maximumNesting) deep; this one is one deeper")
                }
                blocks.append((head, count, [], tooDeep || blocks.last?.isRefused == true))
            case .timelapse:
                guard arguments.count == 4, arguments[0].text == "every", arguments[2].text == "for" else {
                    return fail(arguments.first ?? head, "a time-lapse is written timelapse every SECONDS for COUNT, such as timelapse every 10 for 360")
                }
                guard let every = seconds(arguments[1]), let count = integer(arguments[3], in: 1...1_000_000) else { return }
                add(.timelapse(everySeconds: every, count: count))
            case .switch:
                guard arguments.map(\.text) == ["camera"] else { return fail(arguments.first ?? head, "expected switch camera") }
                add(.switchCamera)
            case .pause, .resume:
                guard arguments.map(\.text) == ["preview"] else { return fail(arguments.first ?? head, "expected \(head.text) preview") }
                add(word == .pause ? .pausePreview : .resumePreview)
            case .compose:
                let usage = "compose takes strip, grid, or template FILE"
                if arguments.first?.text == "template" {
                    guard arguments.count == 2 else {
                        return fail(arguments.count > 2 ? arguments[2] : arguments[0], "compose template takes the template's file, such as compose template \"party.json\"")
                    }
                    guard let path = resolve(arguments[1]) else { return }
                    guard !path.isEmpty else { return fail(arguments[1], usage) }
                    return add(.compose(.template(path)))
                }
                guard arguments.count == 1 else { return fail(arguments.first ?? head, usage) }
                guard let word = resolve(arguments[0]) else { return }
                switch word {
                case "strip": add(.compose(.strip))
                case "grid": add(.compose(.grid))
                default: fail(arguments[0], "\(usage), not \(arguments[0].quoted)")
                }
            case .review:
                guard arguments.isEmpty else {
                    guard arguments.count == 2, arguments[0].text == "timeout" else {
                        return fail(arguments[0], "review takes nothing, or timeout SECONDS (0 waits for ever), such as review timeout 30")
                    }
                    guard let seconds = seconds(arguments[1]) else { return }
                    return add(.review(timeout: seconds))
                }
                add(.review(timeout: nil))
            case .record:
                switch arguments.map(\.text) {
                case ["start"]: add(.startRecording)
                case ["stop"]: add(.stopRecording)
                case let words where words.count == 1:
                    guard let seconds = seconds(arguments[0]) else { return }
                    guard seconds > 0 else { return fail(arguments[0], "record takes more than 0 seconds") }
                    add(.record(seconds: seconds))
                default:
                    return fail(arguments.first ?? head, "record takes a number of seconds (record 10), or start or stop")
                }
            case .printout:
                var options = Script.PrintoutOptions()
                var index = 0
                while index < arguments.count {
                    let option = arguments[index]
                    let word = resolve(option)
                    if word == "cut-strips" {
                        options.cutsStrips = true
                        index += 1
                        continue
                    }
                    let examples = ["copies": "copies 2", "media": "media 4x6", "printer": "printer ipp://HOST/ipp/print"]
                    guard let example = examples[word ?? ""] else {
                        return fail(option, "printout has no option \(option.quoted); expected copies N, media SIZE, printer NAME|URI or cut-strips")
                    }
                    guard index + 1 < arguments.count else { return fail(option, "\(option.text) takes a value, such as \(example)") }
                    let value = arguments[index + 1]
                    switch word {
                    case "copies": guard let copies = integer(value, in: 1...20) else { return }; options.copies = copies
                    case "media":
                        guard let media = resolve(value) else { return }
                        guard !media.isEmpty else { return fail(value, "media takes a paper size, such as media 4x6") }
                        options.media = media
                    default: guard let printer = resolve(value) else { return }; options.printer = printer
                    }
                    index += 2
                }
                add(.printout(options))
            case .set:
                guard arguments.count == 2 else {
                    return fail(arguments.first ?? head, "set takes a setting of a DSLR's own and its value, such as set iso 800 (camctl camera-settings lists them)")
                }
                guard let name = resolve(arguments[0]), let value = resolve(arguments[1]) else { return }
                guard !name.isEmpty else { return fail(arguments[0], "set takes a setting's name, such as set iso 800") }
                add(.cameraSetting(name: name, value: value))
            case .print:
                guard arguments.count == 1 else {
                    return fail(arguments.first ?? head, "print takes one message, in quotes if it has spaces: print \"smile!\"")
                }
                guard let message = resolve(arguments[0]) else { return }
                add(.print(message))
            }
        }

        mutating func add(_ step: Script.Step) {
            if blocks.last?.isRefused == true { return }
            if blocks.isEmpty {
                script.steps.append(step)
            } else {
                blocks[blocks.count - 1].steps.append(step)
            }
        }

        mutating func finish(lines: Int) {
            for block in blocks.reversed() where !block.isRefused {
                fail(block.opener, "the repeat block opened here is not closed; expected } on a line of its own before the end of the file")
            }
            if !sawStep, errors.isEmpty {
                errors.append(ScriptError(line: 1, column: 1,
                    "the file has no steps; expected at least one, such as capture"))
            }
        }

        // MARK: Values

        /// A word, string or `$param` as text; reports an unknown param.
        mutating func resolve(_ token: Token) -> String? {
            switch token.kind {
            case .word: return token.text
            case .string: return interpolate(token)
            case .variable:
                guard let value = script.parameters[token.text] else {
                    let known = script.parameters.keys.sorted()
                    fail(token, "there is no param \(token.text) above; " + (known.isEmpty ? "declare it with param \(token.text) = VALUE"
                        : "the params are \(known.joined(separator: ", "))"))
                    return nil
                }
                return value
            default: return nil
            }
        }

        /// A string with each `$name` replaced by its param's value (`$$` is a dollar sign).
        mutating func interpolate(_ token: Token) -> String? {
            guard token.text.contains("$") else { return token.text }
            var result = ""
            var characters = token.text[...]
            while let character = characters.popFirst() {
                guard character == "$" else { result.append(character); continue }
                if characters.first == "$" { characters.removeFirst(); result.append("$"); continue }
                let name = String(characters.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                guard !name.isEmpty else { result.append("$"); continue }
                characters.removeFirst(name.count)
                guard let value = script.parameters[name] else {
                    fail(token, "there is no param \(name) above for $\(name) in this string; write $$ for a dollar sign")
                    return nil
                }
                result += value
            }
            return result
        }

        mutating func single(_ head: Token, _ arguments: [Token], _ expected: String) -> String? {
            guard arguments.count == 1 else {
                fail(arguments.count > 1 ? arguments[1] : head, "\(head.text) takes one value: \(expected)")
                return nil
            }
            return resolve(arguments[0])
        }

        mutating func integer(_ token: Token, in range: ClosedRange<Int>) -> Int? {
            guard let text = resolve(token) else { return nil }
            guard let value = Int(text), range.contains(value) else {
                fail(token, "\(token.quoted)\(token.kind == .variable ? " (\(text))" : "") is not a whole number from \(range.lowerBound) to \(range.upperBound)")
                return nil
            }
            return value
        }

        mutating func seconds(_ token: Token) -> Double? {
            guard let text = resolve(token) else { return nil }
            guard let value = Double(text), value.isFinite, (0...86_400).contains(value) else {
                fail(token, "\(token.quoted)\(token.kind == .variable ? " (\(text))" : "") is not a number of seconds from 0 to 86400, such as 3 or 0.5")
                return nil
            }
            return value
        }

        mutating func fail(_ token: Token, _ message: String, remedy: ScriptError.Remedy? = nil) {
            errors.append(ScriptError(line: token.line, column: token.column, message, remedy: remedy))
        }
    }
}
