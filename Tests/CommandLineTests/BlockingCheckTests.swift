import Foundation
import TestSupport
import Testing

/// camctl run with `CAMCTL_CHECK_BLOCKING=1`, which ends it at the first SQLite statement,
/// durable write or process start made on Swift's shared threads: the paths that pass it.
@Suite("Blocking work off Swift's shared threads, checked", .startsPrograms)
struct BlockingCheckTests {
    @Test("capture into a library, one photo or several, and a HEIC finished after the shot: no blocking call on the shared threads",
          arguments: [["--count", "1"], ["--count", "3", "--interval", "0.1"], ["--hevc"]])
    func capture(options: [String]) async throws {
        let camctl = try Camctl()
        let ran = try await camctl.run(["capture", "--device", "test", "--json"] + options, environment: ["CAMCTL_CHECK_BLOCKING": "1"])
        #expect(ran.status == 0, "\(ran.standardError.suffix(1500))")
        let photos = try await camctl.photos()
        #expect(photos.count == (options.contains("3") ? 3 : 1), "\(photos)")
        if options.contains("--hevc") {
            #expect(photos.first?["codec"] as? String == "hevc", "finished before camctl ended: \(photos)")
        }
    }

    @Test("booth and record into a library: no blocking call on the shared threads",
          arguments: [["booth", "--countdown", "0", "--shots", "2", "--sink", "fakesink"], ["record", "--duration", "1"]])
    func otherCommands(command: [String]) async throws {
        let camctl = try Camctl()
        let ran = try await camctl.run(command + ["--device", "test"], environment: ["CAMCTL_CHECK_BLOCKING": "1"])
        #expect(ran.status == 0, "\(ran.standardError.suffix(1500))")
        #expect(try await camctl.photos().isEmpty == false, "what it made is in the library")
    }
}
