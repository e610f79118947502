import PipelineScript
import TestSupport
import Testing

@Suite("The description-file parser", .computes)
struct ParserTests {
    static func parse(_ text: String, overrides: [String: String] = [:]) throws(ScriptErrors) -> Parser.Result {
        try Parser.parse(Array(text.utf8), overrides: overrides, image: vocabulary)
    }

    /// Image words as a camera library might define them.
    static let vocabulary = ImageVocabulary(filters: ["none", "mono", "sepia", "warm"],
                                            ranges: ["brightness": -1...1, "contrast": 0...2, "saturation": 0...2, "hue": -1...1, "zoom": 1...8,
                                                     "text size": 1...50, "tolerance": 1...90, "softness": 0...64],
                                            textPlaces: ["top-left", "top", "bottom-left", "bottom-right"])

    @Test("Image words set the session up before the first step and change it as steps after")
    func imageWords() async throws {
        let result = try Self.parse("""
            filter mono warm
            zoom 2 at 0.25,0.75
            aspect 16:9
            brightness -0.2
            capture
            filter sepia
            mirror both
            rotate 90 pixels
            aspect camera
            capture
            """)
        #expect(result.script.session.image == [.filters(["mono", "warm"]), .zoom(2, centerX: 0.25, centerY: 0.75),
                                               .aspect("16:9"), .adjustment("brightness", -0.2)])
        #expect(result.script.steps == [.capture(.init()), .image(.filters(["sepia"])), .image(.mirror("both")),
                                        .image(.rotate(90, pixels: true)), .image(.aspect(nil)), .capture(.init())])
        #expect(result.script.stepListing.contains("filter sepia") && result.script.stepListing.contains("aspect camera"))
    }

    @Test("Captions and stamps: the words, their place, size, font and colour; none takes them away")
    func textWords() async throws {
        let result = try Self.parse("""
            caption "Anna & Ben" at top size 8 font "DejaVu Serif" color gold
            stamp "%Y-%m-%d %H:%M"
            capture
            caption none
            stamp "none" at top-left
            """)
        #expect(result.script.session.image == [
            .text(TextWords(words: "Anna & Ben", place: "top", size: 8, font: "DejaVu Serif", color: "gold"), stamp: false),
            .text(TextWords(words: "%Y-%m-%d %H:%M"), stamp: true),
        ])
        #expect(result.script.steps == [.capture(.init()), .image(.text(nil, stamp: false)),
                                        .image(.text(TextWords(words: "none", place: "top-left"), stamp: true))])
        #expect(result.script.stepListing.contains("caption none") && result.script.stepListing.contains("stamp \"none\" at top-left"))
    }

    @Test("compose takes strip, grid or a template's file")
    func composeLayouts() async throws {
        let result = try Self.parse("capture\ncompose template \"templates/party.json\"\ncompose strip\n")
        #expect(result.script.steps == [.capture(.init()), .compose(.template("templates/party.json")), .compose(.strip)])
        #expect(result.script.stepListing.contains("compose template \"templates/party.json\""))
        #expect(Self.errors("capture\ncompose circle") == ["f.camctl:2:9: compose takes strip, grid, or template FILE, not \"circle\""])
        #expect(Self.errors("capture\ncompose template") == ["f.camctl:2:9: compose template takes the template's file, such as compose template \"party.json\""])
    }

    @Test("A green screen's background and keying; none takes it away")
    func backgroundWords() async throws {
        let result = try Self.parse("""
            background "beach.jpg" key blue tolerance 30 softness 4
            capture
            background none
            """)
        #expect(result.script.session.image == [.background(BackgroundWords(picture: "beach.jpg", key: "blue", tolerance: 30, softness: 4))])
        #expect(result.script.steps == [.capture(.init()), .image(.background(nil))])
        #expect(Self.errors("background beach.jpg tolerance 120\ncapture") == ["f.camctl:1:32: \"120\" is not a number from 1 to 90 for tolerance"])
        #expect(Self.errors("background beach.jpg hue 3\ncapture")
            == ["f.camctl:1:22: background has no option \"hue\"; background PICTURE [key green|blue|COLOR] [tolerance DEGREES] [softness N], or background none"])
    }

    @Test("Image word mistakes give their place", arguments: [
        ("caption\ncapture", "f.camctl:1:1: caption takes its words: caption \"TEXT\" [at PLACE] [size PERCENT] [font FAMILY] [color COLOR], or caption none"),
        ("caption hi at middle\ncapture", "f.camctl:1:15: \"middle\" is not a place; use one of top-left, top, bottom-left, bottom-right"),
        ("stamp \"%H\" size 80\ncapture", "f.camctl:1:17: \"80\" is not a number from 1 to 50 for text size"),
        ("stamp \"%H\" colour red\ncapture", "f.camctl:1:12: stamp has no option \"colour\"; stamp \"%H:%M:%S\" [at PLACE] [size PERCENT] [font FAMILY] [color COLOR], or stamp none"),
        ("caption \"\"\ncapture", "f.camctl:1:9: caption takes words that are not empty: caption \"TEXT\" [at PLACE] [size PERCENT] [font FAMILY] [color COLOR], or caption none"),
        ("filter sepa\ncapture", "f.camctl:1:8: \"sepa\" is not a filter; did you mean sepia?"),
        ("zoom 20\ncapture", "f.camctl:1:6: \"20\" is not a number from 1 to 8 for zoom"),
        ("capture\ncontrast 3", "f.camctl:2:10: \"3\" is not a number from 0 to 2 for contrast"),
        ("aspect wide\ncapture", "f.camctl:1:8: \"wide\" is not an aspect ratio; expected W:H such as 4:3, 16:9, 3:2 or 1:1, or camera"),
        ("mirror left\ncapture", "f.camctl:1:8: mirror takes preview, photos, both or none, not \"left\""),
        ("capture\nrotate 45", "f.camctl:2:8: rotate takes 0, 90, 180 or 270, and pixels to turn the photos' pixels"),
        ("rotate 90 bytes\ncapture", "f.camctl:1:11: rotate takes 0, 90, 180 or 270, and pixels to turn the photos' pixels"),
    ])
    func imageWordErrors(text: String, message: String) async {
        #expect(Self.errors(text) == [message])
    }

    static func errors(_ text: String, overrides: [String: String] = [:]) -> [String] {
        do {
            _ = try parse(text, overrides: overrides)
            return []
        } catch {
            return error.errors.map { $0.formatted(file: "f.camctl") }
        }
    }

    @Test("A booth file reads into its session and steps, with params and --set")
    func booth() async throws {
        let result = try Self.parse("""
            # the four-shot booth of seed 004
            camera test:ball
            resolution 1280x720
            preview ximagesink fullscreen
            codec hevc quality 80
            library "/tmp/my photos"
            filter "videobalance saturation=0"  # mono
            param shots = 4
            param delay = 5

            repeat $shots {
                countdown $delay
                capture
            }
            compose grid
            print "done: $shots shots"
            """, overrides: ["delay": "0.5"])
        let session = result.script.session
        #expect(session.camera == "test:ball" && session.resolution == "1280x720" && session.preview == "ximagesink" && session.previewFillsScreen)
        #expect(session.codec == "hevc" && session.quality == 80 && session.library == .folder("/tmp/my photos"))
        #expect(session.filters == ["videobalance saturation=0"])
        #expect(result.fragments == [Parser.Fragment(text: "videobalance saturation=0", line: 7, column: 8)])
        #expect(result.script.steps == [
            .repeatBlock(count: 4, steps: [.countdown(seconds: 0.5), .capture(.init())]),
            .compose(.grid),
            .print("done: 4 shots"),
        ])
        #expect(result.script.stepListing == ["repeat 4 {", "    countdown 0.5", "    capture", "}", "compose grid",
                                              "print \"done: 4 shots\""])
    }

    @Test("Every step form parses")
    func allSteps() async throws {
        let steps = try Self.parse("""
            capture hevc quality 70 rotate 90
            burst 10
            wait 1.5
            timelapse every 10 for 360
            switch camera
            pause preview
            resume preview
            compose strip
            record 2.5
            record start
            record stop
            printout
            printout copies 2 media 4x6 printer ipp://booth.local/ipp/print cut-strips
            set iso 800
            set shutterspeed "1/125"
            """).script
        #expect(steps.steps == [.capture(.init(codec: "hevc", quality: 70, rotation: 90)), .burst(count: 10), .wait(seconds: 1.5),
                                .timelapse(everySeconds: 10, count: 360), .switchCamera, .pausePreview, .resumePreview,
                                .compose(.strip), .record(seconds: 2.5), .startRecording, .stopRecording, .printout(.init()),
                                .printout(.init(copies: 2, media: "4x6", printer: "ipp://booth.local/ipp/print", cutsStrips: true)),
                                .cameraSetting(name: "iso", value: "800"), .cameraSetting(name: "shutterspeed", value: "1/125")])
        #expect(steps.records && steps.stepListing.suffix(7) == ["record 2.5", "record start", "record stop", "printout",
                                                                 "printout copies 2 media 4x6 printer ipp://booth.local/ipp/print cut-strips",
                                                                 "set iso \"800\"", "set shutterspeed \"1/125\""])
    }

    @Test("Malformed files give FILE:LINE:COLUMN messages", arguments: [
        ("snap\n", ["f.camctl:1:1: unknown step \"snap\"; expected a setting (camera, resolution"]),
        ("captur\n", ["f.camctl:1:1: unknown step \"captur\"; did you mean capture?"]),
        ("countdown soon\n", ["f.camctl:1:11: \"soon\" is not a number of seconds from 0 to 86400, such as 3 or 0.5"]),
        ("burst 0\n", ["f.camctl:1:7: \"0\" is not a whole number from 1 to 100000"]),
        ("repeat 3 {\n  capture\n", ["f.camctl:1:1: the repeat block opened here is not closed; expected } on a line of its own"]),
        ("capture fast\n", ["f.camctl:1:9: capture has no option \"fast\"; expected jpeg, hevc, quality N or rotate N"]),
        ("filter \"! videoflip\"\ncapture\n", ["f.camctl:1:8: the fragment \"! videoflip\" is not elements joined by !"]),
        ("", ["f.camctl:1:1: the file has no steps; expected at least one, such as capture"]),
        ("camera test\n", ["f.camctl:1:1: the file has no steps"]),
        ("print \"open\n", ["f.camctl:1:7: this string is not closed; expected a \" before the end of the line"]),
        ("}\n", ["f.camctl:1:1: this } closes no block; expected a repeat … { before it"]),
        ("print \"costs $price\"\n", ["f.camctl:1:7: there is no param price above for $price in this string; write $$ for a dollar sign"]),
        ("countdown $later\n", ["f.camctl:1:11: there is no param later above; declare it with param later = VALUE"]),
        ("capture\nrepeat 2 {\n  camera test\n}\n", ["f.camctl:3:3: camera is a setting; settings go outside repeat blocks"]),
        ("wait 1\nsnap\nburst x\n", ["f.camctl:2:1: unknown step \"snap\"", "f.camctl:3:7: \"x\" is not a whole number"]),
        ("capture\n\u{1}\n", ["f.camctl:2:1: a control character (code 1) is not allowed; the file must be text"]),
        ("record\n", ["f.camctl:1:1: record takes a number of seconds (record 10), or start or stop"]),
        ("record pause\n", ["f.camctl:1:8: \"pause\" is not a number of seconds"]),
        ("record 0\n", ["f.camctl:1:8: record takes more than 0 seconds"]),
        ("preview none fullscreen\ncapture\n", ["f.camctl:1:14: preview none shows nothing to fill the screen with"]),
        ("preview ximagesink wide\ncapture\n", ["f.camctl:1:20: preview takes one value"]),
        ("printout copies 30\n", ["f.camctl:1:17: \"30\" is not a whole number from 1 to 20"]),
        ("printout glossy\n", ["f.camctl:1:10: printout has no option \"glossy\"; expected copies N, media SIZE, printer NAME|URI or cut-strips"]),
        ("printout media\n", ["f.camctl:1:10: media takes a value, such as media 4x6"]),
        ("printout media \"\"\n", ["f.camctl:1:16: media takes a paper size, such as media 4x6"]),
        ("set iso\n", ["f.camctl:1:5: set takes a setting of a DSLR's own and its value, such as set iso 800"]),
    ])
    func malformed(text: String, expected: [String]) {
        let found = Self.errors(text)
        #expect(found.count == expected.count, "\(found)")
        for (message, prefix) in zip(found, expected) {
            #expect(message.hasPrefix(prefix), "\(message)")
        }
    }

    @Test("An override of no param is left for the caller to report; the file's params are as declared")
    func unknownOverride() async throws {
        let result = try Parser.parse(Array("param shots = 4\ncapture\n".utf8), overrides: ["shot": "3"])
        #expect(result.script.parameters == ["shots": "4"])
    }

    @Test("Binary garbage is refused at the first byte that is not UTF-8")
    func binaryGarbage() async {
        let bytes: [UInt8] = Array("capture\nwait ".utf8) + [0xFF, 0xFE, 0x00, 0x80]
        do {
            _ = try Parser.parse(bytes)
            Issue.record("garbage was accepted")
        } catch {
            #expect(error.errors.map { $0.formatted(file: "f") } == ["f:2:6: this is not UTF-8 text; a description file must be text"])
        }
    }

    @Test("A 10 MB line is refused quickly with its place")
    func hugeLine() async {
        let line = "capture " + String(repeating: "x", count: 10_000_000) + "\n"
        let found = Self.errors(line)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("f.camctl:1:9: capture has no option \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\"") == true)
    }
}

@Suite("Hostile description files", .computes)
struct HostileScriptTests {
    @Test("CRLF line ends are read as LF ones, with the same lines and columns")
    func crlf() async throws {
        let result = try Parser.parse(Array("param shots = 2\r\nrepeat $shots {\r\n    capture\r\n}\r\nprint \"done\"\r\n".utf8))
        #expect(result.script.steps == [.repeatBlock(count: 2, steps: [.capture(.init())]), .print("done")])
        do {
            _ = try Parser.parse(Array("capture\r\nwiat 3\r\n".utf8))
            Issue.record("a misspelled step was accepted")
        } catch {
            #expect(error.errors.map(\.description).first?.hasPrefix("2:1: unknown step \"wiat\"") == true, "\(error.errors)")
        }
    }

    @Test("30,000 nested repeat blocks: one error at the first one too deep, and no deep values")
    func deepNesting() async throws {
        let depth = 30_000
        let text = String(repeating: "repeat 2 {\n", count: depth) + "capture\n" + String(repeating: "}\n", count: depth)
        do {
            _ = try Parser.parse(Array(text.utf8))
            Issue.record("nesting past the limit was accepted")
        } catch {
            #expect(error.errors.map(\.description) == ["\(Parser.maximumNesting + 1):1: repeat blocks nest at most \(Parser.maximumNesting) deep; this one is one deeper"])
        }
        let deepest = String(repeating: "repeat 2 {\n", count: Parser.maximumNesting) + "capture\n"
            + String(repeating: "}\n", count: Parser.maximumNesting)
        let listing = try Parser.parse(Array(deepest.utf8)).script.stepListing
        #expect(listing.count == 2 * Parser.maximumNesting + 1)
    }

    @Test("A byte-order mark before the first word is no part of it; one elsewhere still is")
    func byteOrderMark() async throws {
        let result = try Parser.parse([0xEF, 0xBB, 0xBF] + Array("camera test\ncapture\n".utf8))
        #expect(result.script.steps == [.capture(.init())])
        do {
            _ = try Parser.parse(Array("capture\n\u{FEFF}capture\n".utf8))
            Issue.record("a mark inside the file was taken as nothing")
        } catch {
            #expect(error.errors.first?.description.hasPrefix("2:1: unknown step") == true, "\(error.errors)")
        }
    }

    @Test("Misspellings by a swapped pair of letters are suggested")
    func swappedLetters() async {
        #expect(Spelling.distance("sepai", "sepia") == 1)
        #expect(Spelling.closest(to: "sepai", among: ["mono", "sepia", "warm"]) == "sepia")
        #expect(Spelling.distance("fliter", "filter") == 1)
        #expect(Spelling.distance("abc", "cba") == 2)
        #expect(Spelling.closest(to: "xyz", among: ["mono", "sepia"]) == nil)
    }

    @Test("A lone CR is still a control character, at its place")
    func loneCR() async {
        do {
            _ = try Parser.parse(Array("capture\rwait 1\n".utf8))
            Issue.record("a lone CR was accepted")
        } catch {
            #expect(error.errors.first?.message.contains("control character (code 13)") == true)
        }
    }
}
