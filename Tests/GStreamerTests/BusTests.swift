import GStreamer
import Testing

@Suite("Bus messages as a typed Swift stream", .hangGuard(minutes: 3))
struct BusTests {
    @Test("A pipeline that ends posts its state changes in order, then end-of-stream")
    func messagesArriveInOrder() async throws {
        let pipeline = try Pipeline(describing: "videotestsrc num-buffers=5 ! fakesink name=sink")
        let pipelineName = pipeline.name
        let messages = pipeline.messages()
        let second = pipeline.messages()
        try await pipeline.play()
        var transitions: [String] = []
        var sawStreamStart = false
        for await message in messages {
            switch message {
            case .stateChanged(let source, let from, let to, _) where source == pipelineName:
                transitions.append("\(from)->\(to)")
            case .streamStart:
                sawStreamStart = true
            case .endOfStream(let source):
                #expect(source == pipelineName)
                #expect(sawStreamStart, "stream-start comes before end-of-stream")
                #expect(transitions == ["NULL->READY", "READY->PAUSED", "PAUSED->PLAYING"])
                try await pipeline.stop()
                // Every subscriber sees every message.
                var secondSawEnd = false
                for await message in second {
                    if case .endOfStream = message { secondSawEnd = true; break }
                }
                #expect(secondSawEnd)
                return
            case .error(let report):
                Issue.record("unexpected error: \(report.text)")
            default:
                break
            }
        }
        Issue.record("the message stream ended without end-of-stream")
    }

    @Test("Waiting for the end of a stream after it already ended returns at once")
    func endOfStreamIsNotMissed() async throws {
        let pipeline = try Pipeline(describing: "videotestsrc num-buffers=1 ! fakesink sync=false")
        let messages = pipeline.messages()
        try await pipeline.play()
        // The stream has ended (its end-of-stream message was posted) before anyone waits for it.
        var ended = false
        for await message in messages {
            if case .endOfStream = message { ended = true; break }
        }
        try #require(ended, "the one-frame stream ended")
        // Asked after the end, given no time at all to wait: the pipeline posts nothing more, so
        // only the end already seen can answer. A wait that missed it would throw its time-out.
        await #expect(throws: Never.self) { try await pipeline.waitForEndOfStream(timeout: .zero) }
        // And asked again: the same answer.
        await #expect(throws: Never.self) { try await pipeline.waitForEndOfStream(timeout: .zero) }
        try await pipeline.stop()
    }

    @Test("Element messages carry their structure")
    func elementMessageStructure() async throws {
        let pipeline = try Pipeline(describing: """
            audiotestsrc num-buffers=20 ! audio/x-raw,channels=2 ! level name=meter interval=50000000 ! fakesink sync=false
            """)
        let messages = pipeline.messages()
        try await pipeline.play()
        var levels: [Structure] = []
        for await message in messages {
            if case .element("meter", let structure) = message { levels.append(structure) }
            if case .endOfStream = message { break }
        }
        let first = try #require(levels.first)
        #expect(first.name == "level")
        guard case .array(let channels)? = first["rms"] ?? nil else {
            Issue.record("rms is not an array: \(String(describing: first["rms"]))")
            return
        }
        #expect(channels.count == 2)
        #expect(channels.allSatisfy { ($0.doubleValue ?? 0) < 0 }, "RMS in dB below full scale")
        try await pipeline.stop()
    }

    @Test("Quality-of-service messages report processed and dropped buffers")
    func qualityOfService() async throws {
        // A sink that renders in sync with a clock it cannot keep up with drops late buffers and says so.
        let pipeline = try Pipeline(describing: """
            videotestsrc num-buffers=40 ! video/x-raw,width=320,height=240,framerate=1000/1 \
            ! identity sleep-time=20000 ! fakesink sync=true qos=true max-lateness=1000000
            """)
        let messages = pipeline.messages()
        try await pipeline.play()
        var report: Message.QualityOfService?
        for await message in messages {
            if case .qualityOfService(_, let figures) = message { report = figures }
            if case .endOfStream = message { break }
        }
        let figures = try #require(report)
        #expect(figures.dropped > 0)
        #expect(figures.timestamp != nil)
        try await pipeline.stop()
    }
}

@Suite("A pipeline is stopped by its owner, never by a wrapper's release", .hangGuard(minutes: 3))
struct PipelineOwnershipTests {
    @Test("Dropping a second wrapper of a playing pipeline leaves it playing")
    func secondWrapper() async throws {
        let plain = try Element(factory: "pipeline")
        let owner = try #require(plain.as(Pipeline.self))
        let sink = try Element(factory: "fakesink", name: "sink")
        try owner.addLinked([try Element(factory: "videotestsrc"), sink])
        try await owner.play()
        do {
            let second = try #require(plain.as(Pipeline.self))
            #expect(second.currentState == .playing)
        }
        #expect(owner.currentState == .playing, "the second wrapper's release did not stop the pipeline")
        let pad = try #require(sink.staticPad(named: "sink"))
        #expect(await pad.presentationTime(ofBuffer: 3, waitingAtMost: .seconds(120)) != nil, "frames still flow")
        try await owner.stop()
        #expect(owner.currentState == .null)
    }
}
