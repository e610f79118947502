import Foundation
import GStreamer
import Synchronization
import TestSupport
import Testing

@Suite("Pads, probes and dynamic pads", .hangGuard(minutes: 3))
struct PadTests {
    @Test("A buffer probe that drops every other buffer halves the stream")
    func dropProbe() async throws {
        let pipeline = try Pipeline(describing: """
            videotestsrc num-buffers=40 name=src ! video/x-raw,width=32,height=32 ! appsink name=sink sync=false
            """)
        let source = try #require(pipeline.element(named: "src"))
        let pad = try #require(source.staticPad(named: "src"))
        #expect(pad.direction == .source && pad.name == "src" && pad.elementName == "src")
        let seen = Atomic<Int>(0)
        pad.addProbe(.buffer) { info in
            guard let offset = info.buffer?.offset else { return .ok }
            seen.add(1, ordering: .relaxed)
            return offset % 2 == 0 ? .drop : .ok
        }
        let sink = try #require(pipeline.element(named: "sink", as: AppSink.self))
        let samples = sink.samples(.keepOldest(64))
        try await pipeline.play()
        var offsets: [UInt64] = []
        for await sample in samples { offsets.append(try #require(sample.buffer?.offset)) }
        #expect(offsets == stride(from: 1, to: 40, by: 2).map(UInt64.init))
        #expect(seen.load(ordering: .relaxed) == 40)
        #expect(pad.isLinked && pad.currentCaps != nil)
        try await pipeline.stop()
    }

    @Test("The timestamp of the nth buffer from now, or nil when none comes in time")
    func nthBufferTime() async throws {
        let pipeline = try Pipeline(describing: """
            videotestsrc is-live=true num-buffers=300 ! video/x-raw,width=32,height=32,framerate=30/1 ! fakesink name=sink sync=false
            """)
        let pad = try #require(pipeline.element(named: "sink")?.staticPad(named: "sink"))
        #expect(await pad.presentationTime(ofBuffer: 1, waitingAtMost: .milliseconds(200)) == nil)  // not playing: nothing comes
        async let third = pad.presentationTime(ofBuffer: 3, waitingAtMost: .seconds(120))
        try await pipeline.play()
        // The third buffer the probe saw: the third of the stream, or a later one if the probe came late
        // (a live source paces the stream: ten seconds of it outlast a task started late on a busy
        // machine, and the wait outlasts a start that took seconds there).
        let seconds = try #require(await third).seconds
        #expect(seconds >= 0.06, "\(seconds) s")
        try await pipeline.stop()
    }

    @Test("A blocking probe holds the flow until it is removed")
    func blockingProbe() async throws {
        let pipeline = try Pipeline(describing: """
            videotestsrc name=src is-live=true ! video/x-raw,width=32,height=32,framerate=100/1 ! appsink name=sink sync=false
            """)
        let pad = try #require(pipeline.element(named: "src")?.staticPad(named: "src"))
        let sink = try #require(pipeline.element(named: "sink", as: AppSink.self))
        try await pipeline.play()
        #expect(sink.pullSample(timeout: .seconds(60)) != nil, "data flows before the probe")
        let blocked = Atomic<Int>(0)
        let probe = pad.addProbe(.blockDownstream) { info in
            if info.buffer != nil { blocked.add(1, ordering: .relaxed) }
            return .ok
        }
        #expect(await until(every: .milliseconds(5)) { blocked.load(ordering: .relaxed) > 0 }, "the probe holds a buffer")
        while sink.pullSample(timeout: .milliseconds(50)) != nil {}  // what passed before the block
        #expect(sink.pullSample(timeout: .milliseconds(300)) == nil, "nothing passes while blocked")
        probe.remove()
        #expect(sink.pullSample(timeout: .seconds(60)) != nil, "data flows once the probe is gone")
        try await pipeline.stop()
    }

    @Test("A decoder's pad appears while running and can be linked then")
    func dynamicPad() async throws {
        let folder = try TemporaryFolder()
        let file = folder.path("frame.jpg")
        let writer = try Pipeline(describing: """
            videotestsrc num-buffers=1 ! video/x-raw,width=160,height=120 ! jpegenc ! filesink location="\(file)"
            """)
        try await writer.play()
        try await writer.waitForEndOfStream()
        try await writer.stop()

        let reader = try Pipeline()
        let source = try Element(factory: "filesrc")
        try source.setProperty("location", file)
        let decoder = try Element(factory: "decodebin", name: "decoder")
        let convert = try Element(factory: "videoconvert")
        let sink = try AppSink(name: "sink", caps: Caps("video/x-raw, format=RGB"))
        try reader.add(source, decoder, convert, sink)
        try source.link(to: decoder)
        try convert.link(to: sink)
        #expect(decoder.pads.allSatisfy { $0.direction == .sink }, "no source pad before data flows")
        let convertInput = try #require(convert.staticPad(named: "sink"))
        let linkedPads = Mutex<[String]>([])
        decoder.onPadAdded { pad in
            guard pad.direction == .source else { return }
            do {
                try pad.link(to: convertInput)
                linkedPads.withLock { $0.append(pad.name) }
            } catch {
                Issue.record("linking \(pad) failed: \(error)")
            }
        }
        try await reader.play()
        let sample = try #require(sink.pullSample(timeout: .seconds(120)))
        #expect(sample.videoInfo?.width == 160 && sample.videoInfo?.height == 120)
        #expect(linkedPads.withLock { $0.count } == 1)
        try await reader.stop()
    }

    @Test("Request pads come and go")
    func requestPads() async throws {
        let tee = try Element(factory: "tee")
        let first = try tee.requestPad("src_%u")
        let second = try tee.requestPad("src_%u")
        #expect(first.name != second.name)
        #expect(tee.pads.count == 3)
        tee.releaseRequestPad(first)
        #expect(tee.pads.count == 2)
        #expect(throws: GStreamerError.self) { try tee.requestPad("nonsense_%u") }
    }
}
