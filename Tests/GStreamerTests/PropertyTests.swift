import GStreamer
import Testing

@Suite("Typed element properties", .hangGuard(minutes: 3))
struct PropertyTests {
    @Test("Each kind of value goes in and comes back out unchanged")
    func roundTrips() async throws {
        let source = try Element(factory: "videotestsrc")
        try source.setProperty("num-buffers", 42)
        #expect(try source.property("num-buffers", as: Int.self) == 42)
        try source.setProperty("timestamp-offset", Int64(9_000_000_000_000))
        #expect(try source.property("timestamp-offset", as: Int64.self) == 9_000_000_000_000)
        try source.setProperty("is-live", true)
        #expect(try source.property("is-live", as: Bool.self) == true)
        try source.setProperty("pattern", .enumeration("ball"))
        #expect(try source.property("pattern") == .enumeration("ball"))
        try source.setProperty("pattern", "snow")
        #expect(try source.property("pattern", as: String.self) == "snow")

        let queue = try Element(factory: "queue")
        try queue.setProperty("max-size-buffers", UInt32(7))
        #expect(try queue.property("max-size-buffers") == .uint(7))
        try queue.setProperty("max-size-time", UInt64(5_000_000_000_000))
        #expect(try queue.property("max-size-time", as: UInt64.self) == 5_000_000_000_000)
        try queue.setProperty("leaky", "downstream")
        #expect(try queue.property("leaky") == .enumeration("downstream"))

        let balance = try Element(factory: "videobalance")
        try balance.setProperty("brightness", 0.25)
        #expect(try balance.property("brightness", as: Double.self) == 0.25)

        let sink = try Element(factory: "filesink")
        try sink.setProperty("location", "/tmp/some file.jpg")
        #expect(try sink.property("location", as: String.self) == "/tmp/some file.jpg")

        let filter = try Element(factory: "capsfilter")
        let caps = try Caps("video/x-raw, format=(string)I420, width=(int)640, height=(int)480")
        try filter.setProperty("caps", caps)
        #expect(try filter.property("caps", as: Caps.self) == caps)
        try filter.setProperty("caps", "image/jpeg, width=(int)320")
        #expect(try filter.property("caps", as: Caps.self) == Caps("image/jpeg, width=(int)320"))
    }

    @Test("Unknown properties, wrong types and values out of range are refused with the reason")
    func badValuesAreRefused() async throws {
        let source = try Element(factory: "videotestsrc", name: "cam")
        let unknown = #expect(throws: GStreamerError.self) { try source.setProperty("no-such-thing", 1) }
        #expect(unknown?.kind == .unknownProperty)
        #expect(unknown?.description == "cam: has no property \"no-such-thing\"; gst-inspect-1.0 videotestsrc lists the properties it has")

        let wrongType = #expect(throws: GStreamerError.self) { try source.setProperty("num-buffers", "many") }
        #expect(wrongType?.kind == .invalidPropertyValue)

        let outOfRange = #expect(throws: GStreamerError.self) { try source.setProperty("num-buffers", -5) }
        #expect(outOfRange?.message.contains("allowed: -1 to 2147483647") == true)

        let badNick = #expect(throws: GStreamerError.self) { try source.setProperty("pattern", .enumeration("plaid")) }
        #expect(badNick?.kind == .invalidPropertyValue)

        let wrongSwiftType = #expect(throws: GStreamerError.self) { try source.property("pattern", as: Double.self) }
        #expect(wrongSwiftType?.kind == .invalidPropertyValue)
        #expect(try source.property("num-buffers", as: Int.self) == -1, "refused values leave the property as it was")
    }

    @Test("Elements list their property names")
    func propertyNames() async throws {
        let source = try Element(factory: "videotestsrc")
        #expect(source.propertyNames.contains("pattern"))
        #expect(source.propertyNames.contains("num-buffers"))
        #expect(source.factoryName == "videotestsrc")
    }

    @Test("An element is written in gst-launch syntax with the properties that differ from their defaults")
    func launchDescription() async throws {
        let source = try Element(factory: "videotestsrc", name: "camera")
        #expect(source.launchDescription == "videotestsrc")
        try source.setProperty("pattern", .enumeration("ball"))
        try source.setProperty("is-live", true)
        #expect(source.launchDescription == "videotestsrc pattern=ball is-live=true")
        let file = try Element(factory: "filesrc")
        try file.setProperty("location", "/tmp/a photo \"1\".jpg")
        #expect(file.launchDescription == #"filesrc location="/tmp/a photo \"1\".jpg""#)
        let reparsed = try Pipeline(describing: file.launchDescription + " ! fakesink")
        let location = try reparsed.elements.first { $0.factoryName == "filesrc" }?.property("location", as: String.self)
        #expect(location == "/tmp/a photo \"1\".jpg")
    }
}
