// gst-leak-probe: exercises the Swift wrappers, then shuts GStreamer down so that the `leaks`
// tracer (GST_TRACERS=leaks) reports every GStreamer object still alive.
//
//   gst-leak-probe [FRAMES] [--leak-on-purpose]   frames through an app sink into Swift and back
//                                                 out through an app source, an encoder, probes,
//                                                 caps, tags and bus messages
//   gst-leak-probe --session CYCLES               capture-session start/stop cycles with photos, camera
//                                                 switches, live image changes, a composition, a movie
//                                                 and a booth's clip
//   gst-leak-probe --rtsp VIEWS                   a session's live H.264 served over RTSP, watched
//                                                 VIEWS times in turn by a client pipeline
//
// With --leak-on-purpose one buffer is kept forever, to prove the check can fail.

import Blocking
import CameraKit
import Foundation
import GStreamer
import Synchronization

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.compactMap { Int($0) }.first ?? 300
let leakOnPurpose = arguments.contains("--leak-on-purpose")

/// Runs the pipelines; every wrapper it makes is released when it returns.
func exercise(frames: Int) async throws -> (passed: Int, encoded: Int) {
    let producer = try Pipeline(describing: """
        videotestsrc name=camera num-buffers=\(frames) ! video/x-raw,format=RGB,width=320,height=240,framerate=30/1 \
        ! appsink name=frames sync=false
        """)
    let consumer = try Pipeline(describing: """
        appsrc name=input format=time ! videoconvert ! video/x-raw,format=I420 ! jpegenc ! appsink name=photos sync=false
        """)
    guard let frameSink = producer.element(named: "frames", as: AppSink.self),
          let input = consumer.element(named: "input", as: AppSource.self),
          let photoSink = consumer.element(named: "photos", as: AppSink.self),
          let cameraPad = producer.element(named: "camera")?.staticPad(named: "src")
    else {
        fatalError("the probe pipelines lack their named elements")
    }
    let probe = cameraPad.addProbe(.buffer) { _ in .ok }
    let frameStream = frameSink.samples(.keepOldest(frames))
    let photos = photoSink.samples(.keepOldest(frames))
    let messages = producer.messages()

    try await consumer.beginStateChange(to: .playing)
    try await producer.play()
    var passed = 0
    for await sample in frameStream {
        _ = try sample.withUnsafeBytes { $0.first }
        _ = sample.videoInfo
        try input.push(sample)
        passed += 1
        if leakOnPurpose && passed == 1 {
            // A buffer of our own, not one from a pipeline's pool: a leaked pool buffer can
            // crash GStreamer's teardown before the tracer reports it.
            _ = Unmanaged.passRetained(try Buffer(count: 64) { $0.initializeMemory(as: UInt8.self, repeating: 1) })
        }
    }
    try input.endOfStream()
    var encoded = 0
    for await _ in photos { encoded += 1 }
    try await consumer.waitForEndOfStream()
    probe.remove()

    var tags = try TagList()
    try tags.set(TagList.Tag.deviceModel, .string("probe"))
    _ = tags.description
    _ = try Caps("video/x-raw, width=[ 1, 100 ]").intersection(Caps("video/x-raw, width=50")).fixated().structures
    _ = try DeviceMonitor().devices()

    for await message in messages {
        if case .endOfStream = message { break }
    }
    try await producer.stop()
    try await consumer.stop()
    return (passed, encoded)
}

/// Starts and stops a capture session; every tenth cycle takes a photo, switches to another
/// camera and back, and takes another. Returns the photos taken.
func cycleSession(_ cycles: Int) async throws -> Int {
    var configuration = SessionConfiguration()
    configuration.format = FormatRequest(width: 320, height: 240, frameRate: Fraction(30))
    configuration.framesDroppedAfterStart = 2
    configuration.videoData = VideoDataConfiguration()
    configuration.preview = PreviewConfiguration(sink: "fakesink")
    let session = CaptureSession(configuration: configuration)
    let frames = session.videoDataOutput.frames()
    var photos = 0
    for cycle in 0..<cycles {
        try await session.start()
        if cycle % 10 == 0 {
            _ = try await session.photoOutput.capture()
            photos += 1
            try await session.switchDevice(to: .testCamera(pattern: "ball"))
            _ = try await session.photoOutput.capture()
            photos += 1
            try await session.switchDevice(to: .testCamera())
            // Image settings changed live: the filters' bin swapped (tones, a colour effect), zoom and aspect.
            var image = ImageSettings()
            image.filters = [.sepia, .warm]
            image.zoom = 2
            try await session.changeImage(to: image)
            image.filters = [.heat]
            image.aspectRatio = try AspectRatio(parsing: "1:1")
            try await session.changeImage(to: image)
            _ = try await session.photoOutput.capture()
            photos += 1
            try await session.changeImage(to: ImageSettings())
        }
        await session.stop()
    }
    _ = frames

    // A file used as a camera: its decoder's pad is linked by a handler of ours.
    let image = FileManager.default.temporaryDirectory.appendingPathComponent("leak-probe-\(getpid()).jpg").path
    defer { try? FileManager.default.removeItem(atPath: image) }
    try await session.start()
    let still = try await session.photoOutput.capture().fileData
    await session.stop()
    try Data(still).write(to: URL(fileURLWithPath: image))
    try await session.configure {
        $0.device = try DeviceDiscovery.device(named: "file:\(image)")  // read by the discoverer first
        $0.format = .photo  // the file's own size, from the discoverer
    }
    try await session.start()
    _ = try await session.photoOutput.capture()
    var heic = PhotoSettings()
    heic.codec = .hevc
    _ = try await session.photoOutput.capture(heic)  // the HEVC encoders, started and stopped with the session
    heic.usesHEVCTiles = true
    _ = try await session.photoOutput.capture(heic)
    await session.stop()
    // The booth's composition and a camera's element written in gst-launch syntax.
    _ = try await PhotoComposer.compose([still, still], layout: PhotoComposer.Layout(
        columns: 2, rows: 1, cellWidth: 160, cellHeight: 120, margin: 4))
    _ = try Element(factory: "videotestsrc").launchDescription
    // A movie with sound recorded for half a second (its writer's and microphone's pipelines made
    // and stopped), and a booth's clip.
    try await session.configure {
        $0.device = .testCamera()
        $0.format = FormatRequest(width: 320, height: 240, frameRate: Fraction(30))
        $0.movies = true
    }
    let folder = FileManager.default.temporaryDirectory.path
    let movie = folder + "/leak-probe-\(getpid()).mp4"
    defer { try? FileManager.default.removeItem(atPath: movie) }
    try await session.start()
    try await session.movieOutput.startRecording(to: movie, MovieSettings(maximumDuration: 0.5, audio: .testTone))
    await session.movieOutput.recordingEnded()
    _ = try await session.movieOutput.stopRecording()
    await session.stop()
    _ = try await ShotAnimation.make([still, still], style: .boomerang, width: 160, folder: folder)
    return photos + 5  // the still written as the file, its photos (JPEG, HEIC, tiled HEIC), and the composition
}

/// Serves a session's live H.264 frames over RTSP, as `camctl serve --rtsp` does, and watches
/// the stream `views` times in turn (each a media made and ended); returns the buffers received.
func watchRTSP(_ views: Int) async throws -> Int {
    var configuration = SessionConfiguration()
    configuration.format = FormatRequest(width: 320, height: 240, frameRate: Fraction(30))
    configuration.framesDroppedAfterStart = 2
    configuration.liveH264 = LiveH264Configuration()
    let session = CaptureSession(configuration: configuration)
    try await session.start()
    let server = try RTSPServer(host: "127.0.0.1", port: 0)
    let receivers = Mutex<[LiveReceiver]>([])
    server.mount("/preview", launch: "( appsrc name=frames is-live=true format=time do-timestamp=true caps=\"\(LiveH264Output.caps)\" ! h264parse ! rtph264pay name=pay0 pt=96 )") { bin in
        guard let source = bin.element(named: "frames") as? AppSource else { return {} }
        let receiver = session.liveH264Output.addReceiver { try? source.pushRedated($0) }
        receivers.withLock { $0.append(receiver) }
        return { receivers.withLock { $0.removeAll() } }
    }
    var received = 0
    for _ in 0..<views {
        let client = try Pipeline(describing: "rtspsrc location=rtsp://127.0.0.1:\(server.port)/preview latency=0 ! fakesink num-buffers=20")
        try await client.play()
        try await client.waitForEndOfStream()
        try await client.stop()
        received += 20
    }
    await BlockingLane(label: "rtsp-stop").run { server.stop() }  // it waits for its media and its loop's thread
    receivers.withLock { $0.removeAll() }
    await session.stop()
    return received
}

/// Writes the result unbuffered, so it is out before GStreamer shuts down.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

if arguments.contains("--rtsp") {
    report("rtsp buffers received: \(try await watchRTSP(count))")
} else if arguments.contains("--session") {
    do {
        report("session cycles: \(count), photos: \(try await cycleSession(count))")
    } catch let error as CaptureError {
        // What GStreamer said, for a failure that only a loaded machine shows.
        FileHandle.standardError.write(Data("session failed: \(error.message)\n\(error.debugInfo ?? "")\n".utf8))
        throw error
    }
} else {
    let (passed, encoded) = try await exercise(frames: count)
    report("frames passed: \(passed), photos encoded: \(encoded)")
}
GStreamerRuntime.deinitialize()
