import Foundation
import Glibc
import TestSupport
import Testing

/// A photo (or strip) shown whole on a 640x480 preview: fitted inside a margin of a fortieth of the
/// width and centred, as the preview's picture element places it.
func shownPlace(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
    let margin = 640 / 40
    let scale = min(Double(640 - 2 * margin) / Double(width), Double(480 - 2 * margin) / Double(height))
    let shownWidth = Int(Double(width) * scale), shownHeight = Int(Double(height) * scale)
    return ((640 - shownWidth) / 2, (480 - shownHeight) / 2, shownWidth, shownHeight)
}

/// The mean absolute difference, per colour sample, between a JPEG scaled to `place`'s size and the
/// screen (1280 pixels wide, RGB) there, over the rows `rows` of the picture.
func difference(ofPicture path: String, onScreen screen: [UInt8], at place: (x: Int, y: Int, width: Int, height: Int),
                        rows: Range<Int>) async throws -> Double {
    let folder = try TemporaryFolder()
    let scaled = folder.path("scaled.rgb")
    let made = try await ChildProcess.run("gst-launch-1.0", ["-q", "filesrc", "location=\(path)", "!", "jpegdec", "!", "videoscale", "!",
                                                       "videoconvert", "!", "video/x-raw,format=RGB,width=\(place.width),height=\(place.height)",
                                                       "!", "filesink", "location=\(scaled)"])
    guard made.status == 0 else { throw ChildProcess.Failure(message: made.standardError) }
    let picture = [UInt8](try Data(contentsOf: URL(fileURLWithPath: scaled)))
    let stride = (place.width * 3 + 3) / 4 * 4  // GStreamer's RGB rows are padded to four bytes
    var total = 0, count = 0
    for row in rows {
        for column in 0..<place.width * 3 {
            let shown = screen[(place.y + row) * 1280 * 3 + place.x * 3 + column]
            total += abs(Int(shown) - Int(picture[row * stride + column]))
            count += 1
        }
    }
    return Double(total) / Double(count)
}

/// Screenshots one after another, taken once camctl has said what it shows: the first may come
/// before the display has drawn the picture it was given, the later ones after.
func screenshots(of display: VirtualDisplay, count: Int = 4) async throws -> [[UInt8]] {
    try await (0..<count).asyncMap { _ in try await display.screenshot() }
}

/// The names of the files in a library folder and its thumbnails, and its rows.
private func contents(of camctl: Camctl) async throws -> (files: [String], rows: [String]) {
    let files = try FileManager.default.subpathsOfDirectory(atPath: camctl.library.url.path)
        .filter { !$0.hasPrefix("library.sqlite") }.sorted()
    return (files, try await camctl("library", "list").standardOutput.split(separator: "\n").map(String.init))
}

/// The bound on the mean difference (per colour sample, 0–255) between a picture shown on the
/// preview and the saved file scaled the same way. JPEG, two scalers (the preview's and the
/// test's) and the preview's way to the window (blended in 4:2:0 YUV, which pulls the test
/// pattern's fully saturated bars in by up to 25 levels) leave about 8 for the test camera's
/// bars; the same picture 5 pixels off leaves about 15, 40 pixels off about 35.
let reviewedPictureBound = 12.0

@Suite("Review before save", .startsPrograms)
struct ReviewCommandTests {
    @Test("capture --review shows the photo as it will be saved; the line keep saves it")
    func reviewShowsThePhoto() async throws {
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        let capture = try camctl.start(["capture", "--device", "test", "--resolution", "640x480@30", "--review", "--sink", "ximagesink",
                                        "--json"], environment: ["DISPLAY": display.name], writingInput: true)
        #expect(await capture.output(containing: "\"reviewing\""))
        let screens = try await screenshots(of: display)
        capture.write("keep\n")
        let result = await capture.finished()
        #expect(result.status == 0, "\(result.standardError)")
        let saved = Camctl.objects(result.standardOutput).compactMap { $0["path"] as? String }
        #expect(saved.count == 1)
        #expect(try await camctl.photos().count == 1)
        let path = try #require(saved.first)
        let place = shownPlace(width: 640, height: 480)
        // The hint is drawn over the picture's foot: its top two thirds are compared.
        let differences = try await screens.asyncMap { try await difference(ofPicture: path, onScreen: $0, at: place, rows: 0..<(place.height * 2 / 3)) }
        let (shown, screen) = try #require(zip(differences, screens).min { $0.0 < $1.0 })
        #expect(shown < reviewedPictureBound, "mean differences \(differences)")
        let shifted = try await difference(ofPicture: path, onScreen: screen, at: (place.x + 40, place.y, place.width - 40, place.height),
                                     rows: 0..<(place.height * 2 / 3))
        #expect(shifted > reviewedPictureBound * 2, "the comparison tells a misplaced picture: \(shifted)")
    }

    @Test("A discarded photo leaves the library's files and rows as they were, and runs no hook")
    func discardLeavesNothing() async throws {
        let camctl = try Camctl()
        #expect(try await camctl("capture", "--device", "test", "--resolution", "320x240").status == 0)
        let before = try await contents(of: camctl)
        let folder = try TemporaryFolder()
        let marker = folder.path("hook-ran")
        let capture = try camctl.start(["capture", "--device", "test", "--resolution", "320x240", "--review", "--sink", "fakesink",
                                        "--json", "--exec", "touch \(marker)"], writingInput: true)
        #expect(await capture.output(containing: "\"reviewing\""))
        capture.write("discard\n")
        let result = await capture.finished()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "camctl: the photo was discarded; nothing of it was saved\n")
        #expect(Camctl.objects(result.standardOutput).contains { $0["event"] as? String == "discarded" && $0["count"] as? Int == 1 })
        let after = try await contents(of: camctl)
        #expect(after.files == before.files && after.rows == before.rows)
        #expect(!FileManager.default.fileExists(atPath: marker))
        let temporary = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix("camctl-last-photo-\(capture.processIdentifier)-") }
        #expect(temporary.isEmpty, "\(temporary)")
    }

    @Test("The word discard piped before the photo is under review discards it: the review it was meant for takes it")
    func discardTypedAhead() async throws {
        let camctl = try Camctl()
        let capture = try camctl.start(["capture", "--device", "test", "--resolution", "320x240", "--review", "--sink", "fakesink",
                                        "--review-timeout", "600"], writingInput: true)
        capture.write("discard\n")  // at once: camctl is still starting its camera
        let result = await capture.finished()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError == "camctl: the photo was discarded; nothing of it was saved\n")
        #expect(try await camctl.photos().isEmpty)
    }

    @Test("A review nobody answers keeps the photo after --review-timeout seconds")
    func timeoutKeeps() async throws {
        let camctl = try Camctl()
        let started = ContinuousClock.now
        let result = try await camctl.run(["capture", "--device", "test", "--resolution", "320x240", "--review", "--sink", "fakesink",
                                     "--review-timeout", "1.5"])
        #expect(result.status == 0, "\(result.standardError)")
        // Not kept before its time-out: a lower bound, which a busy machine only lengthens.
        #expect(ContinuousClock.now - started >= .seconds(1.5))
        #expect(try await camctl.photos().count == 1)
    }

    @Test("Keys in a terminal decide: x and Delete discard, k keeps",
          .enabled(if: ChildProcess.isInstalled("script"), "needs script(1) for a terminal"))
    func keysDecide() async throws {
        let camctl = try Camctl()
        let prompt = "review: Enter or k keeps"
        let result = try await camctl.inTerminal(["capture", "--device", "test", "--resolution", "320x240", "--review", "--review-timeout", "600",
                                                  "--sink", "fakesink", "--count", "3"],
                                                 keys: [(prompt, 0, "x"), (prompt, 0, "\u{1B}[3~"), (prompt, 0, "k")])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardOutput.components(separatedBy: "the photo was discarded").count == 3, "\(result.standardOutput)")
        #expect(try await camctl.photos().count == 1)
    }

    @Test("A description file's review word: the photos since the last review are kept or discarded together")
    func reviewWord() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let file = folder.path("review.camctl")
        try """
            camera test
            resolution 320x240
            preview fakesink
            burst 2
            review
            capture
            review timeout 1
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let run = try camctl.start(["run", file, "--json"], writingInput: true)
        #expect(await run.output(containing: "\"reviewing\""))
        run.write("discard\n")
        let result = await run.finished()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(Camctl.objects(result.standardOutput).contains { $0["event"] as? String == "discarded" && $0["count"] as? Int == 2 })
        #expect(try await camctl.photos().count == 1, "the burst discarded, the last photo kept when its review timed out")
    }

    @Test("booth --review shows the strip; keeping saves the shots and the strip together")
    func boothReview() async throws {
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        let booth = try camctl.start(["booth", "--device", "test", "--resolution", "640x480@30", "--shots", "2", "--layout", "1x4",
                                      "--countdown", "0.5", "--show-shots", "0", "--review", "--sink", "ximagesink", "--json"],
                                     environment: ["DISPLAY": display.name], writingInput: true)
        #expect(await booth.output(containing: "\"reviewing\""))
        #expect(try await camctl.photos().isEmpty, "nothing is saved before the review")
        let strips = try await screenshots(of: display)
        booth.write("keep\n")
        let result = await booth.finished()
        #expect(result.status == 0, "\(result.standardError)")
        let objects = Camctl.records(result.standardOutput)
        let composed = try #require(objects.last?["path"] as? String)
        #expect(objects.filter { $0["path"] != nil }.count == 3, "two shots and the strip, kept together")
        let place = shownPlace(width: 672, height: 1008)
        let shown = try await strips.asyncMap { try await difference(ofPicture: composed, onScreen: $0, at: place, rows: 0..<(place.height / 2)) }
        #expect(try #require(shown.min()) < reviewedPictureBound, "the strip under review: \(shown)")
    }
}
