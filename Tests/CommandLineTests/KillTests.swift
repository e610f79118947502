import Foundation
import TestSupport
import Testing

/// camctl killed without warning while it saves photos: every photo it reported saved is in the
/// library, whole, and nothing half-written is indexed.
///
/// It awaits its children rather than holding a thread: it starts with the run instead of waiting
/// for one of the aside pool's, a wait its time limit would count. Its forty camctl runs take a
/// minute on a quiet machine and nearly four beside two busy loops: its guard, for a hang only, is
/// fifteen.
@Suite("Killed during a burst, nothing reported saved is lost", .hangGuard(minutes: 15))
struct KillTests {
    @Test("20 SIGKILLs at random moments of JPEG bursts, HEIC ones encoded at once, and HEIC ones finished later, into one library")
    func randomKills() async throws {
        let camctl = try Camctl()
        var reported: [String] = []
        var generator = SystemRandomNumberGenerator()
        for round in 0..<20 {
            // A HEIC burst finished later spools its frames at the camera's rate and finishes them
            // slowly: three of them, so what the kills leave is finished within the test's time.
            let run = try camctl.start(["capture", "--device", "test:snow", "--resolution", "640x480"]
                                       + [["--count", "200"], ["--count", "200", "--hevc", "--now"], ["--count", "3", "--hevc"]][round % 3])
            // The kill comes at a random moment after the first photo is reported: how long the
            // start takes on a busy machine does not decide whether anything is saved at all.
            #expect(await run.output(containing: "\n", timeout: 60), "round \(round): no photo reported in a minute")
            try await Task.sleep(for: .seconds(Double.random(in: 0...0.8, using: &generator)))
            run.send(SIGKILL)
            let result = await run.finished(timeout: 30)
            #expect(result.status == SIGKILL || result.status == 0, "round \(round): \(result.status)")
            // Only whole lines: a path is reported once its line is out.
            let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            reported += lines.dropLast().map(String.init)
        }
        let photos = try await camctl.photos()
        #expect(reported.count >= 20 && photos.count >= reported.count, "\(photos.count) photos kept, \(reported.count) reported")
        let paths = Set(photos.compactMap { $0["path"] as? String })
        let missing = reported.filter { !paths.contains($0) }
        #expect(missing.isEmpty, "reported saved but not in the library: \(missing)")
        for photo in photos {
            let path = try #require(photo["path"] as? String)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes.count == photo["bytes"] as? Int, "\(path) is whole")
            if path.hasSuffix(".jpg") {
                #expect(bytes.prefix(2) == [0xFF, 0xD8] && bytes.suffix(2) == [0xFF, 0xD9], "\(path) is a whole JPEG")
            } else {
                #expect(Array(bytes[4..<8]) == Array("ftyp".utf8), "\(path) is a HEIF file")
            }
        }
        // What the kills left processing is finished, every photo kept.
        let processed = try await ChildProcess.run(ChildProcess.buildFolder.appendingPathComponent("camctl").path, ["library", "process"],
                                                        environment: ["CAMCTL_LIBRARY": camctl.library.url.path])
        #expect(processed.status == 0, "\(processed.standardError)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: camctl.library.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "the first command after the kills that writes the library removed the temporary files: \(leftovers)")
        // The listing above only read the library; this first writing opening also indexed any
        // photo a kill left written whole but not yet in the index (the last round's kill may
        // land between the two), so every photo listed before is there, and perhaps one more.
        // A photo is known by its name's stem: a HEIC finished from its proxy keeps the proxy's.
        let final = try await camctl.photos()
        let stem = { (path: String) in String(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent) }
        let before = Set(paths.map(stem)), after = Set(final.compactMap { ($0["path"] as? String).map(stem) })
        #expect(before.isSubset(of: after) && final.count <= photos.count + 1 && final.allSatisfy { $0["state"] as? String == "final" },
                "\(photos.count) photos before, \(final.count) after: \(final.map { "\($0["path"] ?? "") \($0["state"] ?? "")" })")
        let spool = (try? FileManager.default.contentsOfDirectory(atPath: camctl.library.path("spool"))) ?? []
        #expect(spool.isEmpty, "\(spool)")
    }
}
