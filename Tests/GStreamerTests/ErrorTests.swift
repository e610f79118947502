import GStreamer
import Testing

@Suite("Failures are Swift errors that name the element", .hangGuard(minutes: 3))
struct ErrorTests {
    @Test("An element nobody installed")
    func unknownFactory() async throws {
        let error = #expect(throws: GStreamerError.self) { try Element(factory: "nosuchelement", name: "cam") }
        #expect(error?.kind == .missingElement)
        #expect(error?.element == "cam")
        #expect(error?.message.contains("\"nosuchelement\"") == true)
    }

    @Test("An unknown element in a pipeline description")
    func unknownElementInDescription() async throws {
        let error = #expect(throws: GStreamerError.self) { try Pipeline(describing: "videotestsrc ! nosuchsink") }
        #expect(error?.kind == .missingElement)
        #expect(error?.message.contains("nosuchsink") == true)
    }

    @Test("A malformed pipeline description")
    func malformedDescription() async throws {
        let error = #expect(throws: GStreamerError.self) { try Pipeline(describing: "videotestsrc ! ! fakesink") }
        #expect(error?.kind == .parse || error?.kind == .link)
    }

    @Test("Two elements that share no format cannot be linked")
    func linkWithoutCommonFormat() async throws {
        let pipeline = try Pipeline()
        let audio = try Element(factory: "audiotestsrc", name: "tone")
        let encoder = try Element(factory: "jpegenc", name: "encoder")
        try pipeline.add(audio, encoder)
        #expect(Set(pipeline.elements.map(\.name)) == ["tone", "encoder"])
        let error = #expect(throws: GStreamerError.self) { try audio.link(to: encoder) }
        #expect(error?.kind == .link)
        #expect(error?.description == "tone: cannot be linked to encoder: no pads of theirs share a format; put a converter (videoconvert, videoscale) between them")
    }

    @Test("Elements outside a common bin cannot be linked")
    func linkAcrossBins() async throws {
        let pipeline = try Pipeline()
        let source = try Element(factory: "videotestsrc", name: "inside")
        let sink = try Element(factory: "fakesink")
        try pipeline.add(source)
        let error = #expect(throws: GStreamerError.self) { try source.link(to: sink) }
        #expect(error?.message.contains("same bin") == true)
    }

    /// A test camera limited to 100 pixels wide, feeding a sink that wants 200 once it runs:
    /// the link succeeds and the failure comes during negotiation.
    static func conflictingPipeline(live: Bool) throws -> Pipeline {
        let pipeline = try Pipeline()
        let camera = try Element(factory: "videotestsrc", name: "camera")
        try camera.setProperty("is-live", live)
        let sink = try AppSink(name: "sink")
        try pipeline.add(camera, sink)
        try camera.link(to: sink, filter: Caps("video/x-raw, width=100"))
        sink.caps = try Caps("video/x-raw, width=200")
        return pipeline
    }

    @Test("Caps that cannot be negotiated fail the state change, naming the element")
    func negotiationFailure() async throws {
        let pipeline = try Self.conflictingPipeline(live: false)
        let error = await #expect(throws: GStreamerError.self) { try await pipeline.setState(.paused) }
        #expect(error?.kind == .negotiation)
        #expect(error?.element == "camera")
        #expect(error?.message.contains("not-negotiated") == true)
        try await pipeline.stop()
    }

    @Test("An element that cannot open its resource fails to start, naming the element")
    func elementFailsToStart() async throws {
        let pipeline = try Pipeline(describing: "filesrc name=reader location=/nonexistent/file.jpg ! fakesink")
        let error = await #expect(throws: GStreamerError.self) { try await pipeline.play() }
        #expect(error?.kind == .resource)
        #expect(error?.element == "reader")
        #expect(error?.report?.domain == .resource)
        #expect(error?.report?.code == Message.Report.ResourceCode.notFound)
        #expect(error?.description.hasPrefix("reader: ") == true)
        try await pipeline.stop()
    }

    @Test("A state change that never completes times out instead of hanging")
    func stateChangeTimesOut() async throws {
        // An app source that is never fed cannot preroll.
        let pipeline = try Pipeline(describing: "appsrc name=src ! fakesink")
        let error = await #expect(throws: GStreamerError.self) { try await pipeline.setState(.paused, timeout: .milliseconds(300)) }
        #expect(error?.kind == .timeout)
        try await pipeline.stop()
    }

    @Test("Waiting for the end of a stream reports the error that ended it")
    func errorWhileWaitingForEnd() async throws {
        // A live source skips preroll, so the negotiation failure comes after the state change began.
        let pipeline = try Self.conflictingPipeline(live: true)
        try await pipeline.beginStateChange(to: .playing)
        let error = await #expect(throws: GStreamerError.self) { try await pipeline.waitForEndOfStream(timeout: .seconds(120)) }
        #expect(error?.kind == .negotiation)
        try await pipeline.stop()
    }
}
