import Foundation
import TestSupport
import Testing

@Suite("Printing a booth's picture", .printsToIPP,
       .enabled(if: IPPPrinter.isAvailable, "needs cups-ipp-utils, avahi-daemon and dbus-daemon"))
struct PrintCommandTests {
    static let booth = ["booth", "--device", "test", "--resolution", "320x240", "--sink", "fakesink", "--shots", "2", "--countdown", "0",
                        "--show-shots", "0", "--show-result", "0", "--json"]

    @Test("booth --print sends its composed picture as one job, told as printing and printed; the printer keeps exactly that picture")
    func printsTheComposition() async throws {
        let printer = try await IPPPrinter()
        let camctl = try Camctl()
        let printed = try await camctl.run(Self.booth + ["--print", "--printer", printer.uri])
        #expect(printed.status == 0, "\(printed.standardError)")
        let objects = Camctl.objects(printed.standardOutput)
        let events = objects.compactMap { $0["event"] as? String }
        #expect(events.suffix(2) == ["printing", "printed"], "\(events)")
        let composed = try #require(Camctl.records(printed.standardOutput).first { $0["composed"] as? Bool == true }, "\(objects)")
        let picture = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(composed["path"] as? String))))
        #expect(try printer.documents() == [picture], "one job, the composed picture as the library keeps it")
    }

    @Test("capture --print --count 2 prints each photo as a job of its own, the library's file; --print with --hevc is refused")
    func printsEachPhoto() async throws {
        let printer = try await IPPPrinter()
        let camctl = try Camctl()
        let printed = try await camctl("capture", "--device", "test", "--resolution", "320x240", "--count", "2", "--print", "--printer", printer.uri)
        #expect(printed.status == 0, "\(printed.standardError)")
        let files = try printed.standardOutput.split(separator: "\n").map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: String($0)))) }
        let documents = try printer.documents()
        #expect(files.count == 2 && documents == files, "one job a photo, each the photo as kept")
        let refused = try await camctl("capture", "--device", "test", "--hevc", "--print")
        #expect(refused.status == 64 && refused.standardError.contains("--print prints JPEG photos"), "\(refused.standardError)")
    }

    @Test("serve --printer prints a library photo when the API asks, tells printing and printed, and prints no more than its limit of one picture")
    func printsOverTheAPI() async throws {
        let printer = try await IPPPrinter()
        let served = try await ServedCamera(extra: ["--printer", printer.uri, "--print-limit", "2"])
        defer { served.process.send(SIGTERM) }
        let listener = try await served.listenToEvents()
        defer { listener.send(SIGKILL) }
        #expect(try await served.json("/api/status").object["printer"] as? String == printer.uri)
        #expect(try await served.json("/api/capture", ["-X", "POST"]).status == 200)
        let asked = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "print", "id": 1}"#])
        #expect(asked.status == 200 && asked.object["outcome"] as? String == "printing" && asked.object["job"] as? Int == 1, "\(asked)")
        #expect(await listener.output(containing: #""event":"printed""#), "\(listener.outputSoFar)")
        let photo = try await served.json("/api/photos/1").object
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try #require(photo["path"] as? String))))
        let documents = try printer.documents()
        #expect(documents == [file])
        let beyond = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "print", "id": 1, "copies": 2}"#])
        #expect(beyond.status == 409 && (beyond.object["error"] as? String)?.contains("printed copies") == true, "\(beyond)")
        let missing = try await served.json("/api/actions", ["-X", "POST", "-d", #"{"action": "print", "id": 9}"#])
        #expect(missing.status == 404, "\(missing)")
    }

    @Test("A printer that cannot be reached: one sentence, exit 69, every picture kept")
    func unreachable() async throws {
        let camctl = try Camctl()
        let failed = try await camctl.run(Self.booth + ["--print", "--printer", "ipp://localhost:1/ipp/print"])
        #expect(failed.status == 69, "\(failed.standardError)")
        let lines = failed.standardError.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("cannot be reached") && lines[0].contains("the picture was not printed, and is kept at"),
                "\(failed.standardError)")
        #expect(try await camctl.photos().count == 3, "the shots and their picture")
        let misplaced = try await camctl.run(["booth", "--printer", "x"])
        #expect(misplaced.status == 64 && misplaced.standardError.contains("--printer goes with --print"), "\(misplaced.standardError)")
    }
}
