import GStreamer
import Testing

@Suite("App source: buffers from Swift into a pipeline", .hangGuard(minutes: 3))
struct AppSourceTests {
    @Test("Pushed buffers come out unchanged, with their timestamps, then the stream ends")
    func pushedBuffersArriveUnchanged() async throws {
        let caps = try Caps("video/x-raw,format=GRAY8,width=16,height=16,framerate=10/1")
        let pipeline = try Pipeline()
        let source = try AppSource(name: "in", caps: caps)
        let sink = try AppSink(name: "out")
        try sink.setProperty("sync", false)
        try pipeline.addLinked([source, sink])
        try source.push(Buffer(count: 256, presentationTime: .zero) { $0.initializeMemory(as: UInt8.self, repeating: 0) })
        #expect(source.queuedBytes == 256, "queued until the pipeline runs")
        // The sink can preroll only once data comes, so the change to playing is not awaited.
        try await pipeline.beginStateChange(to: .playing)
        for index in 0..<20 {
            let buffer = try Buffer(count: 256, presentationTime: ClockTime(.milliseconds(100 * index)),
                                    duration: ClockTime(.milliseconds(100))) { bytes in
                for offset in bytes.indices { bytes[offset] = UInt8((offset + index) % 256) }
            }
            try source.push(buffer)
        }
        try source.endOfStream()
        #expect(try #require(sink.pullSample(timeout: .seconds(120))?.buffer).bytes() == [UInt8](repeating: 0, count: 256))
        for index in 0..<20 {
            let sample = try #require(sink.pullSample(timeout: .seconds(120)))
            let buffer = try #require(sample.buffer)
            #expect(buffer.presentationTime == ClockTime(.milliseconds(100 * index)))
            #expect(try buffer.bytes() == (0..<256).map { UInt8(($0 + index) % 256) })
            #expect(sample.caps == caps)
        }
        try await pipeline.waitForEndOfStream(timeout: .seconds(120))
        #expect(throws: GStreamerError.self) { try source.push(Buffer(copying: UnsafeRawBufferPointer(start: nil, count: 0))) }
        try await pipeline.stop()
    }

    @Test("Pushing into a stopped pipeline fails with a clear error")
    func pushIntoStoppedPipelineFails() async throws {
        let pipeline = try Pipeline(describing: "appsrc name=idle ! fakesink")
        let source = try #require(pipeline.element(named: "idle", as: AppSource.self))
        try await pipeline.beginStateChange(to: .playing)
        try await pipeline.stop()
        let error = #expect(throws: GStreamerError.self) {
            try source.push(Buffer(copying: UnsafeRawBufferPointer(start: nil, count: 0)))
        }
        #expect(error?.kind == .flow)
        #expect(error?.description == "idle: cannot push a buffer: the pipeline is not playing or paused")
    }
}
