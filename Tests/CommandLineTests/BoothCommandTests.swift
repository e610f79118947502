import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl booth's screen and keys", .startsPrograms)
struct BoothCommandTests {
    @Test("The booth shows each shot in its place of the strip for a moment after it is taken, the last too, then the composed strip")
    func boothSlots() async throws {
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        // Each picture is shown until the shutter (SIGUSR1) cuts it short, once the screen is read.
        let booth = try camctl.start(["booth", "--device", "test", "--resolution", "640x480@30", "--shots", "2", "--layout", "1x4",
                                      "--countdown", "0.5", "--show-shots", "600", "--show-result", "600", "--sink", "ximagesink", "--json"],
                                     environment: ["DISPLAY": display.name])
        #expect(await booth.output(containing: #""picture":"shots""#), "\(booth.outputSoFar)")
        let slots = try await screenshots(of: display, count: 3)
        booth.send(SIGUSR1)
        // The last shot too is shown in its place (where it can be retaken) before the result.
        #expect(await booth.output(containing: #""event":"retake_offered","number":2"#), "\(booth.outputSoFar)")
        #expect(await until { booth.outputSoFar.components(separatedBy: #""picture":"shots""#).count == 3 }, "\(booth.outputSoFar)")
        booth.send(SIGUSR1)
        #expect(await booth.output(containing: #""picture":"result""#), "\(booth.outputSoFar)")
        let results = try await screenshots(of: display, count: 3)
        booth.send(SIGUSR1)
        let result = await booth.finished()
        #expect(result.status == 0, "\(result.standardError)")
        let composed = try #require(Camctl.records(result.standardOutput).last?["path"] as? String)
        // The strip's layout (one column, two places) fitted into the preview: the first shot in the
        // top place (as the composed strip has it), the second place empty (white).
        let place = shownPlace(width: 672, height: 1008)
        let shown = try await slots.asyncMap { try await difference(ofPicture: composed, onScreen: $0, at: place, rows: 0..<(place.height * 2 / 5)) }
        let best = try #require(zip(shown, slots).min { $0.0 < $1.0 })
        #expect(best.0 < reviewedPictureBound, "the first shot in its place: \(shown)")
        var white = 0, total = 0
        for row in (place.height * 11 / 20)..<(place.height * 19 / 20) {
            for column in (place.width / 8)..<(place.width * 7 / 8) {
                let index = ((place.y + row) * 1280 + place.x + column) * 3
                if best.1[index] > 235, best.1[index + 1] > 235, best.1[index + 2] > 235 { white += 1 }
                total += 1
            }
        }
        #expect(white * 10 > total * 9, "the second place is empty: \(white) of \(total) white")
        let strip = try await results.asyncMap { try await difference(ofPicture: composed, onScreen: $0, at: place, rows: 0..<place.height) }
        #expect(try #require(strip.min()) < reviewedPictureBound, "the composed strip after the last shot: \(strip)")
    }

    @Test("a pressed in the booth's window while a shot is shown takes it again, leaving nothing of the first; --no-retake shows no offer")
    func retakeKey() async throws {
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        let booth = try camctl.start(["booth", "--device", "test", "--resolution", "320x240", "--shots", "1", "--countdown", "0",
                                      "--show-shots", "600", "--show-result", "0", "--sink", "ximagesink", "--json"],
                                     environment: ["DISPLAY": display.name])
        let offer = #""event":"retake_offered","number":1"#
        #expect(await booth.output(containing: offer), "\(booth.outputSoFar)")
        #expect(try await display.press(["a"], inWindowNamed: "camctl"))
        #expect(await until { booth.outputSoFar.components(separatedBy: offer).count == 3 }, "offered again: \(booth.outputSoFar)")
        booth.send(SIGUSR1)  // the shutter ends the second showing
        let result = await booth.finished(timeout: 120)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.components(separatedBy: #""event":"shot""#).count == 3, "shot 1 told twice: \(result.standardOutput)")
        #expect(try await camctl.photos().count == 2, "the shot kept and its picture, nothing of the one retaken")
        // Without retakes: the single shot goes straight to its picture, with no offer.
        let plain = try await camctl.run(["booth", "--device", "test", "--resolution", "320x240", "--shots", "1", "--countdown", "0",
                                          "--show-shots", "600", "--show-result", "0", "--sink", "fakesink", "--no-retake", "--json"])
        #expect(plain.status == 0 && !plain.standardOutput.contains("retake_offered"), "\(plain.standardOutput) \(plain.standardError)")
        #expect(try await camctl.photos().count == 4)
    }

    @Test("booth --kiosk welcomes guest after guest: between them the window shows the pictures of the guests before under its line, each guest's picture is theirs, and q ends it")
    func kioskGuests() async throws {
        let display = try await VirtualDisplay()
        let camctl = try Camctl()
        // Each picture of the attract screen shows until the shutter (SIGUSR1) starts the next guest.
        let booth = try camctl.start(["booth", "--kiosk", "--attract-seconds", "600", "--device", "test", "--resolution", "640x480@30",
                                      "--shots", "1", "--layout", "1x4", "--countdown", "0", "--show-shots", "0", "--show-result", "0",
                                      "--sink", "ximagesink", "--json"],
                                     environment: ["DISPLAY": display.name])
        let attracting = #""event":"attracting","message":"Press the button for your photos""#
        func attractScreens() -> Int { booth.outputSoFar.components(separatedBy: attracting).count - 1 }
        #expect(await booth.output(containing: attracting), "\(booth.outputSoFar)")
        #expect(await booth.handling(SIGUSR1))
        var shownAfter: [[[UInt8]]] = []
        for guest in 1...2 {
            booth.send(SIGUSR1)
            #expect(await until { attractScreens() == guest + 1 }, "the attract screen again after guest \(guest): \(booth.outputSoFar)")
            #expect(await until { booth.outputSoFar.components(separatedBy: #""picture":"attract""#).count == guest + 1 }, "\(booth.outputSoFar)")
            shownAfter.append(try await screenshots(of: display, count: 3))
        }
        booth.send(SIGUSR2)  // q: no more guests
        let result = await booth.finished()
        #expect(result.status == 0, "\(result.standardError)")
        let records = Camctl.records(result.standardOutput)
        let pictures = records.filter { $0["composed"] as? Bool == true }
        #expect(records.count == 4 && pictures.count == 2, "each guest's shot and picture: \(records)")
        // After each guest, the newest picture shows first: that guest's own.
        for (shown, record) in zip(shownAfter, pictures) {
            let picture = try #require(record["path"] as? String)
            let place = shownPlace(width: try #require(record["width"] as? Int), height: try #require(record["height"] as? Int))
            let differences = try await shown.asyncMap { try await difference(ofPicture: picture, onScreen: $0, at: place, rows: 0..<place.height) }
            #expect(try #require(differences.min()) < reviewedPictureBound, "\(picture) on the attract screen: \(differences)")
        }
        let refused = try await camctl.run(["booth", "--device", "test", "--attract-line", "Hello"])
        #expect(refused.status == 64 && refused.standardError.contains("--attract-line goes with --kiosk"), "\(refused.standardError)")
    }

    @Test("--animation keeps a clip of the shots: ffprobe reads H.264 (or a GIF) 640 pixels wide, a boomerang runs forwards then backwards, under 2 MB",
          arguments: ["mp4", "boomerang", "gif"])
    func animation(style: String) async throws {
        let camctl = try Camctl()
        let result = try await camctl("booth", "--device", "test:ball", "--resolution", "1280x720@30", "--shots", "4", "--countdown", "0.3",
                                "--show-shots", "0", "--show-result", "0", "--sink", "fakesink", "--animation", style, "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let clip = try #require(Camctl.records(result.standardOutput).last, "\(result.standardOutput)")
        #expect(clip["kind"] as? String == "movie" && clip["width"] as? Int == 640 && clip["height"] as? Int == 360, "\(clip)")
        let path = try #require(clip["path"] as? String)
        let probed = try await RecordCommandTests.probe(path)
        let codec = style == "gif" ? "gif" : "h264"
        #expect(probed["codec_name"] == codec && clip["codec"] as? String == codec && probed["width"] == "640", "\(probed)")
        #expect(path.hasSuffix(style == "gif" ? ".gif" : ".mp4"))
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(bytes < 2_000_000, "\(bytes) bytes")
        // Which shot each frame shows, by its nearest shot (each shot's thumbnail, 640 wide).
        let shots = Camctl.objects(result.standardOutput).filter { ($0["path"] as? String)?.hasSuffix(".jpg") == true }.prefix(4)
        let frames = try await Self.frames(of: path, width: 640, height: 360)
        let references = try await shots.asyncMap { try await Self.frames(ofPicture: try #require($0["thumbnail_path"] as? String), width: 640, height: 360) }
        let shown = frames.map { frame in
            references.indices.min { Self.distance(frame, references[$0]) < Self.distance(frame, references[$1]) } ?? -1
        }
        var order: [Int] = []
        for index in shown where order.last != index { order.append(index) }
        let round = style == "boomerang" ? [0, 1, 2, 3, 2, 1] : [0, 1, 2, 3]
        #expect(Array(order.prefix(round.count)) == round, "shown in the order \(order)")
        // 4 shots, 6 frames each, 3 times; or 6 turns, 3 frames each, 4 times; a GIF's 4 pictures play over for ever.
        #expect(shown.count == (style == "gif" ? 4 : 72), "\(shown.count) frames")
        #expect(try await camctl.photos().filter { $0["kind"] as? String == "movie" }.count == 1)
    }

    /// A movie's frames as RGB, read by ffmpeg at `width`x`height`.
    static func frames(of path: String, width: Int, height: Int) async throws -> [[UInt8]] {
        let result = try await ChildProcess.run("ffmpeg", ["-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24",
                                                     "-s", "\(width)x\(height)", "-vsync", "passthrough", "-"])
        let size = width * height * 3, bytes = [UInt8](result.standardOutputBytes)
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { Array(bytes[$0..<$0 + size]) }
    }

    static func frames(ofPicture path: String, width: Int, height: Int) async throws -> [UInt8] {
        try #require(try await frames(of: path, width: width, height: height).first)
    }

    /// The mean absolute difference of two RGB pictures of one size, on every 7th byte.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        stride(from: 0, to: min(a.count, b.count), by: 7).reduce(0) { $0 + abs(Int(a[$1]) - Int(b[$1])) }
    }

    @Test("f during a countdown changes the filter and does not fire the shutter",
          .enabled(if: ChildProcess.isInstalled("script"), "needs script(1) for a terminal"))
    func filterKeyDuringCountdown() async throws {
        let camctl = try Camctl()
        // f while the countdown runs, then the shutter (Space) once the filter is on: the photo is
        // the only one, and mono.
        let result = try await camctl.inTerminal(["booth", "--device", "test", "--resolution", "320x240", "--shots", "1", "--countdown", "600",
                                                  "--show-result", "0", "--sink", "fakesink"],
                                                 keys: [("taking the photo in", 0, "f"), ("filter: mono", 0, " ")])
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        let photos = try await camctl.photos().filter { ($0["path"] as? String)?.hasSuffix(".jpg") == true }
        let shot = try #require(photos.first, "\(result.standardOutput)")
        #expect(photos.count == 2, "the shot and the composed picture: \(photos)")
        let pixels = try await Self.frames(ofPicture: try #require(shot["path"] as? String), width: 64, height: 48)
        var colour = 0  // the largest difference between a pixel's channels
        for index in stride(from: 0, to: pixels.count - 2, by: 3) {
            let (red, green, blue) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
            colour = max(colour, abs(red - green) + abs(green - blue))
        }
        #expect(colour < 24, "the shot is mono, taken after the key changed the filter: colour \(colour)")
    }
}
