import GStreamer
import Testing

@Suite("App sink: frames from a pipeline into Swift", .hangGuard(minutes: 3))
struct AppSinkTests {
    /// The seven top bars of videotestsrc's SMPTE pattern in RGB, left to right.
    static let smpteBars: [[UInt8]] = [
        [255, 255, 255], [255, 255, 0], [0, 255, 255], [0, 255, 0], [255, 0, 255], [255, 0, 0], [0, 0, 255],
    ]

    @Test("Frames arrive with the requested caps, rising timestamps and the test pattern's pixels")
    func framesHaveCapsTimestampsAndPixels() async throws {
        // 321 pixels wide: RGB rows of 963 bytes are padded to 964, so strides matter.
        let pipeline = try Pipeline(describing: """
            videotestsrc num-buffers=10 pattern=smpte ! video/x-raw,format=RGB,width=321,height=240,framerate=30/1 \
            ! appsink name=sink sync=false
            """)
        let sink = try #require(pipeline.element(named: "sink", as: AppSink.self))
        try await pipeline.play()
        var timestamps: [ClockTime] = []
        while let sample = sink.pullSample(timeout: .seconds(120)) {  // nil at once at the end of the stream
            let info = try #require(sample.videoInfo)
            #expect(info.format == "RGB")
            #expect(info.width == 321 && info.height == 240)
            #expect(info.frameRate == Fraction(30, 1))
            #expect(info.planes == [VideoInfo.Plane(offset: 0, stride: 964)])
            let structure = try #require(sample.caps?.structures.first)
            #expect(structure["width"] == .int(321))
            let buffer = try #require(sample.buffer)
            timestamps.append(try #require(buffer.presentationTime))
            #expect(buffer.decodeTime == nil, "raw video has no separate decode time")
            #expect(try #require(buffer.duration).nanoseconds / 1000 == 33_333)
            #expect(!buffer.isDeltaUnit)
            #expect(buffer.count == 964 * 240)
            try sample.withUnsafeBytes { bytes in
                for (bar, expected) in Self.smpteBars.enumerated() {
                    let x = (2 * bar + 1) * 321 / 14
                    let row = 10 * info.planes[0].stride
                    #expect(Array(bytes[row + 3 * x ..< row + 3 * x + 3]) == expected, "bar \(bar)")
                }
            }
        }
        #expect(sink.isEndOfStream)
        #expect(timestamps.count == 10)
        #expect(timestamps.first == .zero)
        for (earlier, later) in zip(timestamps, timestamps.dropFirst()) {
            #expect(later.nanoseconds - earlier.nanoseconds == 33_333_333 || later.nanoseconds - earlier.nanoseconds == 33_333_334)
        }
        try await pipeline.stop()
    }

    @Test("Pulling from a sink with no data returns nil after the timeout")
    func pullTimesOut() async throws {
        let pipeline = try Pipeline(describing: "appsrc name=src ! appsink name=sink")
        let sink = try #require(pipeline.element(named: "sink", as: AppSink.self))
        try await pipeline.setState(.ready)
        let started = ContinuousClock.now
        #expect(sink.pullSample(timeout: .milliseconds(200)) == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(150))
        try await pipeline.stop()
    }

    @Test("A paused pipeline hands over its preroll sample; an end-of-stream sent in ends it")
    func prerollAndEndOfStream() async throws {
        #expect(GStreamerRuntime.hasElement("videotestsrc"))
        #expect(!GStreamerRuntime.hasElement("nosuchelement"))
        let pipeline = try Pipeline(describing: "videotestsrc name=src ! video/x-raw,width=64,height=48 ! appsink name=sink")
        let sink = try #require(pipeline.element(named: "sink", as: AppSink.self))
        try await pipeline.setState(.paused)
        let preroll = try #require(sink.pullPreroll(timeout: .seconds(120)))
        #expect(preroll.videoInfo?.width == 64)
        #expect(try #require(pipeline.element(named: "src")?.staticPad(named: "src")).possibleCaps.canIntersect(Caps("video/x-raw")))
        try await pipeline.play()
        pipeline.sendEndOfStream()
        while sink.pullSample(timeout: .seconds(120)) != nil {}  // drain to the end, which answers nil at once
        try await pipeline.waitForEndOfStream(timeout: .seconds(120))
        #expect(sink.isEndOfStream)
        try await pipeline.stop()
    }

    @Test("A slow consumer of the sample stream loses the oldest samples, counted, and never stalls the pipeline")
    func slowConsumerDropsAreCounted() async throws {
        let pipeline = try Pipeline(describing: """
            videotestsrc num-buffers=60 ! video/x-raw,format=GRAY8,width=64,height=48 ! appsink name=sink sync=false
            """)
        let sink = try #require(pipeline.element(named: "sink", as: AppSink.self))
        let samples = sink.samples(.keepNewest(2))
        try await pipeline.play()
        // The pipeline reaches its end although nobody reads yet: the stream does not hold it back.
        try await pipeline.waitForEndOfStream(timeout: .seconds(120))
        var consumed: [UInt64] = []
        for await sample in samples {
            consumed.append(try #require(sample.buffer?.offset))
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(samples.deliveredCount == 60)
        #expect(consumed == [58, 59], "the newest two frames are kept")
        #expect(samples.droppedCount == 58)
        try await pipeline.stop()
    }

    @Test("A consumer that keeps up receives every sample in order")
    func fastConsumerReceivesAll() async throws {
        let pipeline = try Pipeline(describing: """
            videotestsrc num-buffers=100 ! video/x-raw,format=GRAY8,width=64,height=48 ! appsink name=sink sync=false
            """)
        let sink = try #require(pipeline.element(named: "sink", as: AppSink.self))
        let samples = sink.samples(.keepOldest(200))
        try await pipeline.play()
        var offsets: [UInt64] = []
        for await sample in samples {
            offsets.append(try #require(sample.buffer?.offset))
        }
        #expect(offsets == Array(0..<100))
        #expect(samples.droppedCount == 0)
        try await pipeline.stop()
    }
}
