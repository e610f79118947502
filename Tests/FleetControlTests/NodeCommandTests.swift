import FleetControl
import JSON
import Testing
import TestSupport

/// The commands a controller sends, as the nodes' API reads them.
@Suite("A fleet's commands", .hangGuard(minutes: 3))
struct NodeCommandTests {
    @Test("A capture names its instant and expires a second after it; a listing its page; neither carries the other's fields")
    func payloads() throws {
        let capture = try #require(try JSONValue(parsing: NodeCommand.capture(at: 1_800_000_000.25).payload).object)
        #expect(capture["action"]?.string == "capture" && capture["at"]?.double == 1_800_000_000.25)
        #expect(capture["expires_at"]?.double == 1_800_000_001.25 && capture["id"]?.string?.hasPrefix("capture-") == true)
        #expect(Set(capture.keys) == ["id", "action", "at", "expires_at"])
        let page = try #require(try JSONValue(parsing: NodeCommand.photos(after: 41, limit: 50, lifetime: 30).payload).object)
        #expect(page["action"]?.string == "photos" && page["after"]?.double == 41 && page["limit"]?.double == 50)
        #expect(Set(page.keys) == ["id", "action", "after", "limit", "expires_at"])
        #expect(NodeCommand.capture(at: 0).id != NodeCommand.capture(at: 0).id, "each command's id is new")
    }
}
