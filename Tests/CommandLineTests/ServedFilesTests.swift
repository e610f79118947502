import Foundation
import Glibc
import TestSupport
import Testing

/// The server sends the library's own files only: what stands in a file's place is never followed
/// or waited on. On Swift's pool: the test awaits its children.
@Suite("camctl serve sends only the library's own files", .hangGuard(minutes: 3))
struct ServedFilesTests {
    @Test("A photo or thumbnail replaced by a link out of the library, or by a FIFO, is served to no one and holds nothing up")
    func linksAreNotServed() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }  // ended as the test ends; how is not what it checks
        let outside = try TemporaryFolder()
        let secret = outside.path("secret.txt")
        try Data("secret".utf8).write(to: URL(fileURLWithPath: secret))
        let taken = try await served.json("/api/capture", ["-X", "POST"])
        let photo = try #require((taken.object["photos"] as? [[String: Any]])?.first)
        let (link, path) = (try #require(photo["guest_link"] as? String), try #require(photo["path"] as? String))
        let thumbnail = try #require(photo["thumbnail_path"] as? String)
        #expect(try await served.request(link).status == 200)
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: secret)
        try FileManager.default.removeItem(atPath: thumbnail)
        #expect(mkfifo(thumbnail, 0o644) == 0)
        for route in [link, link + "/file", link + "/thumbnail", "/api/photos/1/file", "/api/photos/1/thumbnail"] {
            let answer = try await served.request(route)
            #expect(answer.status == 404 && !answer.body.contains("secret"), "\(route): \(answer.status) \(answer.body)")
        }
        #expect(try await served.json("/api/status").status == 200, "the server still answers")
    }
}
