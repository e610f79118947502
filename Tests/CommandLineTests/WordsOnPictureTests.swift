import Foundation
import TestSupport
import Testing

/// Captions and time stamps drawn on the picture, read back by tesseract's OCR.
@Suite("Words on the picture: --caption and --stamp", .startsPrograms)
struct WordsOnPictureTests {
    /// The one line of text tesseract reads in a picture, its letters limited to `letters` if given.
    static func read(_ picture: String, letters: String? = nil) async throws -> String {
        var arguments = [picture, "-", "--psm", "7"]
        if let letters { arguments += ["-c", "tessedit_char_whitelist=\(letters)"] }
        let result = try await ChildProcess.run("tesseract", arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `HH:MM:SS.mmm` as seconds since midnight.
    static func seconds(_ stamp: String) -> Double? {
        let parts = stamp.split(separator: ":")
        guard parts.count == 3, let hours = Double(parts[0]), let minutes = Double(parts[1]), let seconds = Double(parts[2]) else { return nil }
        return hours * 3600 + minutes * 60 + seconds
    }

    @Test("record --stamp: each frame shows when it was taken; the first's and last's stamps differ by the movie's length")
    func stampedMovie() async throws {
        let camctl = try Camctl()
        let before = Date()
        let result = try await camctl("record", "--device", "test:black", "--resolution", "640x360@30", "--duration", "3",
                                      "--stamp", "%H:%M:%S.%3N", "--stamp-at", "center", "--text-size", "15", "--json",
                                      environment: ["TZ": "UTC"])
        let after = Date()
        #expect(result.status == 0, "\(result.standardError)")
        let movie = try #require(Camctl.objects(result.standardOutput).first { $0["kind"] as? String == "movie" }, "\(result.standardOutput)")
        let path = try #require(movie["path"] as? String)
        let times = try await RecordCommandTests.frameTimes(path)
        let folder = camctl.library.url
        let first = folder.appendingPathComponent("first.png").path, last = folder.appendingPathComponent("last.png").path
        for (arguments, picture) in [(["-i", path, "-vf", "select=eq(n\\,0)", "-frames:v", "1"], first),
                                     (["-sseof", "-0.5", "-i", path, "-update", "1"], last)] {
            let extracted = try await ChildProcess.run("ffmpeg", ["-v", "error", "-y"] + arguments + [picture])
            #expect(extracted.status == 0, "\(extracted.standardError)")
        }
        let firstStamp = try await Self.read(first, letters: "0123456789:.")
        let lastStamp = try await Self.read(last, letters: "0123456789:.")
        let start = try #require(Self.seconds(firstStamp), "\(firstStamp)"), end = try #require(Self.seconds(lastStamp), "\(lastStamp)")
        let length = try #require(times.last) - (try #require(times.first))
        // Stamps are cut to the millisecond: two of them differ from the frames' distance by less than 2 ms.
        #expect(abs((end - start) - length) < 0.002, "stamped \(firstStamp) and \(lastStamp), frames \(length) s apart")
        #expect(length > 2.5, "\(times.count) frames over \(length) s")
        // The stamps are the frames' moments on the real-time clock the movie is dated by (in UTC,
        // as TZ says): the movie's date and both stamps lie within the command's run, in order,
        // the first frame stamped no earlier than the run's start, the last no later than its end.
        // (Cut to the millisecond: a stamp may read up to 1 ms early.) Which frames the movie holds,
        // and that none is missing, the frame times above and RecordCommandTests check.
        let began = Double(try #require(movie["captured_at_us"] as? Int)) / 1e6
        let dayStart = (before.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400
        /// A time of day as seconds after `before`'s midnight (the next day's past it, if the run crossed midnight).
        func onRunsDay(_ seconds: Double) -> Double { seconds + (seconds < before.timeIntervalSince1970 - dayStart - 43_200 ? 86_400 : 0) }
        let (runStart, runEnd) = (before.timeIntervalSince1970 - dayStart, after.timeIntervalSince1970 - dayStart)
        let (firstFrame, lastFrame, dated) = (onRunsDay(start), onRunsDay(end), began - dayStart)
        #expect(runStart - 0.001 <= firstFrame && firstFrame <= lastFrame && lastFrame <= runEnd,
                "stamped \(firstStamp) and \(lastStamp) in a run of \(runStart) to \(runEnd) s of the day")
        #expect(runStart <= dated && dated <= runEnd, "dated \(dated) s of the day, in a run of \(runStart) to \(runEnd)")
    }

    @Test("capture --caption: the words, an ampersand kept as written, in the photo; a bad place or colour is refused")
    func captionedPhoto() async throws {
        let camctl = try Camctl()
        let output = camctl.library.url.appendingPathComponent("caption.jpg").path
        let result = try await camctl("capture", "--device", "test:black", "--resolution", "640x360", "--caption", "Anna & Ben 2026",
                                      "--caption-at", "center", "--text-size", "12", "--text-color", "#ffcc00", "--output", output)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await Self.read(output) == "Anna & Ben 2026")
        let wrongPlace = try await camctl("capture", "--device", "test", "--caption", "x", "--caption-at", "middle")
        #expect(wrongPlace.status == 64 && wrongPlace.standardError.contains("--caption-at middle is not a place; use one of top-left"),
                "\(wrongPlace.standardError)")
        let wrongColour = try await camctl("capture", "--device", "test", "--caption", "x", "--text-color", "greenish")
        #expect(wrongColour.status == 64 && wrongColour.standardError.contains("\"greenish\" is not a colour"), "\(wrongColour.standardError)")
        let lonePlace = try await camctl("capture", "--device", "test", "--stamp-at", "top")
        #expect(lonePlace.status == 64 && lonePlace.standardError.contains("give --stamp too"), "\(lonePlace.standardError)")
        let control = try await camctl("capture", "--device", "test", "--caption", "a\u{7}b")
        #expect(control.status == 64 && control.standardError.contains("control character"), "\(control.standardError)")
    }

    @Test("Words are drawn as written whatever they hold: a caption ending in a backslash, quotes and a font-like word; text past its bytes or marks is refused at once")
    func wordsAsWritten() async throws {
        let camctl = try Camctl()
        let output = camctl.library.url.appendingPathComponent("slash.jpg").path
        let result = try await camctl("capture", "--device", "test:black", "--resolution", "640x360", "--caption", #"C:\ "Sans" \"#,
                                      "--caption-at", "center", "--text-size", "12", "--output", output)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await Self.read(output).contains("Sans"))
        // One character carrying 60,000 combining marks, and a stamp of 40,000 more bytes than a file of settings may hold.
        let marked = "e" + String(repeating: "\u{301}", count: 60_000)
        let refused = try await camctl("capture", "--device", "test", "--caption", marked)
        HostileInputTests.expectOneSentence(refused, 64, containing: "longer than 800 bytes")
        let heavy = try await camctl("capture", "--device", "test", "--caption", "e" + String(repeating: "\u{301}", count: 20))
        HostileInputTests.expectOneSentence(heavy, 64, containing: "has a character carrying more than 15 marks")
    }

    @Test("A description file changes the caption while the camera runs, and stamp none takes the stamp away")
    func describedWords() async throws {
        let camctl = try Camctl()
        let file = camctl.library.url.appendingPathComponent("words.camctl").path
        try """
            camera test:black
            resolution 640x360@30
            caption "ONE" at center size 12
            stamp "%H:%M" at top
            capture
            caption "TWO" at center size 12
            stamp none
            capture
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await camctl("run", file, "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let photos = Camctl.objects(result.standardOutput).compactMap { $0["path"] as? String }
        try #require(photos.count == 2, "\(result.standardOutput)")
        // The middle band of each photo, where the caption is.
        for (photo, words) in zip(photos, ["ONE", "TWO"]) {
            let band = photo + ".band.png"
            let cropped = try await ChildProcess.run("convert", [photo, "-crop", "640x120+0+120", band])
            #expect(cropped.status == 0, "\(cropped.standardError)")
            #expect(try await Self.read(band) == words)
        }
        // The first photo's top holds its stamp; the second's top is black.
        let tops = try await [photos[0], photos[1]].asyncMap { photo in
            try await ChildProcess.run("convert", [photo, "-crop", "640x60+0+0", "-colorspace", "gray", "-format", "%[fx:maxima]", "info:"])
        }
        #expect(Double(tops[0].standardOutput) ?? 0 > 0.5 && Double(tops[1].standardOutput) ?? 1 < 0.2,
                "\(tops.map(\.standardOutput)) \(tops.map(\.standardError))")
    }
}
