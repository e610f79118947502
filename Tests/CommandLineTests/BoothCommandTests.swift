import Foundation
import Glibc
import TestSupport
import Testing

@Suite("camctl booth's screen and keys", .timeLimit(.minutes(3)), .aside)
struct BoothCommandTests {
    @Test("The booth shows each shot in its place of the strip for a moment after it is taken, then the composed strip")
    func boothSlots() throws {
        let display = try VirtualDisplay()
        let camctl = try Camctl()
        let booth = try camctl.start(["booth", "--device", "test", "--resolution", "640x480@30", "--shots", "2", "--layout", "1x4",
                                      "--countdown", "0.5", "--show-shots", "4", "--show-result", "8", "--sink", "ximagesink", "--json"],
                                     environment: ["DISPLAY": display.name])
        #expect(booth.waitForOutput(containing: "\"path\""))
        let slots = try screenshots(of: display, count: 2)
        #expect(booth.waitForOutput { Camctl.objects($0).filter { $0["path"] != nil }.count == 3 })
        let results = try screenshots(of: display, count: 3)  // while the strip shows, for 8 s on a busy machine
        let result = booth.finish()
        #expect(result.status == 0, "\(result.standardError)")
        let composed = try #require(Camctl.objects(result.standardOutput).last?["path"] as? String)
        // The strip's layout (one column, two places) fitted into the preview: the first shot in the
        // top place (as the composed strip has it), the second place empty (white).
        let place = shownPlace(width: 672, height: 1008)
        let shown = try slots.map { try difference(ofPicture: composed, onScreen: $0, at: place, rows: 0..<(place.height * 2 / 5)) }
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
        let strip = try results.map { try difference(ofPicture: composed, onScreen: $0, at: place, rows: 0..<place.height) }
        #expect(strip.min()! < reviewedPictureBound, "the composed strip after the last shot: \(strip)")
    }

    @Test("f during a countdown changes the filter and does not fire the shutter",
          .enabled(if: ChildProcess.isInstalled("script"), "needs script(1) for a terminal"))
    func filterKeyDuringCountdown() throws {
        let camctl = try Camctl()
        let started = Date()
        let result = try camctl.inTerminal(["booth", "--device", "test", "--resolution", "320x240", "--shots", "1", "--countdown", "4",
                                            "--show-result", "0", "--sink", "fakesink", "--json"], typing: [(1.5, "f")], thenWait: 8)
        #expect(result.status == 0, "\(result.standardOutput) \(result.standardError)")
        #expect(result.standardOutput.contains("filter: mono"), "\(result.standardOutput)")
        let shot = try #require(try camctl.photos().first)
        let taken = try #require((shot["captured_at"] as? String).flatMap { try? Date($0, strategy: .iso8601) })
        #expect(taken.timeIntervalSince(started) > 3.5, "the shot came when the countdown ran out, not at the key")
    }
}
