@testable import CameraKit
import Foundation
import GStreamer
import Synchronization
import TestSupport
import Testing

@Suite("The capture session on the test camera and files", .hangGuard(minutes: 3))
struct CaptureSessionTests {
    /// The cameras the session tests run on: the test camera, and a still image used as a camera.
    enum Camera: String, CaseIterable, Sendable {
        case testCamera, imageFile

        /// The device, writing the image first where there is one.
        func device(in folder: TemporaryFolder) async throws -> CaptureDevice {
            switch self {
            case .testCamera:
                return .testCamera()
            case .imageFile:
                let path = folder.path("camera.png")
                let writer = try Pipeline(describing: """
                    videotestsrc num-buffers=1 pattern=colors ! video/x-raw,width=800,height=600 ! pngenc ! filesink location="\(path)"
                    """)
                try await writer.play()
                try await writer.waitForEndOfStream()
                try await writer.stop()
                return try DeviceDiscovery.device(named: "file:\(path)")
            }
        }
    }

    static func configuration(_ format: String = "640x480@30", device: CaptureDevice = .testCamera()) throws -> SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.device = device
        configuration.format = try FormatRequest(parsing: format)
        configuration.framesDroppedAfterStart = 0
        return configuration
    }

    @Test("Start and stop cycles report their events in order", arguments: Camera.allCases)
    func startStopCycles(camera: Camera) async throws {
        let folder = try TemporaryFolder()
        let session = CaptureSession(configuration: try Self.configuration(device: try await camera.device(in: folder)))
        let events = session.events()
        for _ in 0..<5 {
            try await session.start()
            #expect(await session.status == .running)
            #expect(session.photoOutput.readiness == .ready)
            await session.stop()
            #expect(await session.status == .stopped)
            #expect(session.photoOutput.readiness == .notRunning)
        }
        var seen: [String] = []
        for await event in events {
            switch event {
            case .started: seen.append("started")
            case .running: seen.append("running")
            case .stopped: seen.append("stopped")
            default: seen.append("\(event)")
            }
            if seen.count == 15 { break }
        }
        #expect(seen == Array(repeating: ["started", "running", "stopped"], count: 5).flatMap { $0 })
    }

    @Test("A photo is a JPEG with EXIF, of the capture size, with a thumbnail of the requested size")
    func photoHasMetadataAndThumbnail() async throws {
        let session = CaptureSession(configuration: try Self.configuration("1920x1080@30"))
        try await session.start()
        var settings = PhotoSettings()
        settings.thumbnailMaximumSide = 320
        let photo = try await session.photoOutput.capture(settings)
        await session.stop()

        #expect(photo.width == 1920 && photo.height == 1080)
        #expect(photo.resolvedSettings.thumbnailWidth == 320 && photo.resolvedSettings.thumbnailHeight == 180)
        let folder = try TemporaryFolder()
        let file = folder.path("photo.jpg"), thumbnail = folder.path("thumbnail.jpg")
        try Data(photo.fileData).write(to: URL(fileURLWithPath: file))
        try Data(photo.thumbnailData).write(to: URL(fileURLWithPath: thumbnail))
        let fields = try await run("exiftool", ["-s", "-s", "-s", "-FileType", "-ImageWidth", "-ImageHeight", "-Make", "-Model",
                                          "-Orientation#", "-SubSecTimeOriginal", "-Software", file])
            .split(separator: "\n").map(String.init)
        #expect(fields.count == 8)
        #expect(Array(fields.prefix(6)) == ["JPEG", "1920", "1080", "camctl", "Test camera (smpte)", "1"])
        #expect(fields.count > 6 && Int(fields[6]) != nil, "sub-second capture time")
        #expect(fields.last == "camctl \(CameraKitVersion.current)")
        let dateTime = try await run("exiftool", ["-s", "-s", "-s", "-DateTimeOriginal", "-d", "%s", file])
        let written = try #require(Double(dateTime.trimmingCharacters(in: .whitespacesAndNewlines)))
        // The photo's own instant, in whole seconds as DateTimeOriginal keeps it (its fraction is
        // SubSecTimeOriginal).
        #expect(written == photo.capturedAt.timeIntervalSince1970.rounded(.down), "\(written) against \(photo.capturedAt)")
        #expect(try await run("exiftool", ["-validate", "-s", "-s", "-s", file]).hasPrefix("OK"))
        #expect(try await run("exiftool", ["-s", "-s", "-s", "-ImageSize", thumbnail]) == "320x180\n")
    }

    @Test("Zero shutter lag: speed takes the frame current at the request, quality the next one")
    func zeroShutterLag() async throws {
        let session = CaptureSession(configuration: try Self.configuration("640x480@30"))
        try await session.start()
        _ = try await session.photoOutput.capture()  // frames flow
        let interval: UInt64 = 1_000_000_000 / 30
        for _ in 0..<5 {
            var settings = PhotoSettings()
            settings.prioritization = .speed
            let delivered = UInt64(session.cameraFrameCount)  // the camera's newest frame before the request is number delivered - 1
            let fast = try await session.photoOutput.capture(settings)
            let request = try #require(fast.requestTime), frame = try #require(fast.frameTime)
            #expect(frame <= request, "the frame existed at the request")
            // Current: the newest frame the photo branch held, which is at most the frames still on
            // their way to it behind the camera's newest (one in the chain, two in the branch's
            // queue, one being handed over), however slow the machine: a frame kept from earlier
            // would be behind by more.
            let number = try #require(fast.frameNumber)
            #expect(number + 5 >= delivered, "frame \(number) taken when the camera had delivered \(delivered)")

            settings.prioritization = .quality
            let careful = try await session.photoOutput.capture(settings)
            let carefulRequest = try #require(careful.requestTime), carefulFrame = try #require(careful.frameTime)
            #expect(carefulFrame.nanoseconds + interval > carefulRequest.nanoseconds, "quality waits for a frame made at or after the request")
            #expect(try #require(careful.frameNumber) > (fast.frameNumber ?? 0))
        }
        await session.stop()
    }

    @Test("Overlapping captures each get an id, their events carry it, and photos arrive in request order")
    func overlappingCaptures() async throws {
        let session = CaptureSession(configuration: try Self.configuration("1280x720@30"))
        let events = session.photoOutput.events()
        let stream = session.photoOutput.photos()
        try await session.start()
        let ids = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 { group.addTask { try await session.photoOutput.capture().captureID } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(ids).count == 4)
        var published: [Int] = []
        for await photo in stream {
            published.append(photo.captureID)
            if published.count == 4 { break }
        }
        #expect(published == published.sorted(), "photos are published in request order")
        var finished: Set<Int> = []
        for await event in events {
            if case .didFinishCapture(let id, let error) = event {
                #expect(error == nil)
                finished.insert(id)
            }
            if finished.count == 4 { break }
        }
        #expect(finished == Set(ids))
        await session.stop()
    }

    @Test("A burst takes consecutive frames, each a different one, in order")
    func burst() async throws {
        let session = CaptureSession(configuration: try Self.configuration("640x480@30"))
        try await session.start()
        // Every frame the photo branch gets from before the burst to the session's stop, by number:
        // the frames the burst could take.
        let arrivals = session.photoOutput.feed.frames(count: .max, frameTimeout: .seconds(120))
        let arrived = Task {
            var numbers: [UInt64] = []
            do { for try await frame in arrivals { numbers.append(frame.buffer?.offset ?? .max) } } catch {}  // ended by the stop
            return numbers
        }
        let photos = try await session.photoOutput.captureBurst(count: 10)
        await session.stop()
        let delivered = await arrived.value
        let numbers = photos.compactMap(\.frameNumber)
        try #require(numbers.count == 10, "\(numbers)")
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $1 > $0 }, "distinct frames in order: \(numbers)")
        // Taken as they came: ten frames in a row of those the photo branch got, none left out
        // between them (a live source that skipped a number under load skipped it for both).
        let first = try #require(delivered.firstIndex(of: numbers[0]), "the burst's first frame \(numbers[0]) reached the branch: \(delivered)")
        #expect(Array(delivered[first...].prefix(10)) == numbers, "took \(numbers) of \(Array(delivered[first...].prefix(12)))")
        #expect(photos.map(\.captureID) == photos.map(\.captureID).sorted())
        #expect(Set(photos.map(\.captureID)).count == 10)
    }

    @Test("A burst whose photos in hand fill its budget lets frames pass and names them; every frame is taken or named, none twice")
    func burstWithinBudget() async throws {
        let session = CaptureSession(configuration: try Self.configuration("320x240@240"))
        try await session.start()
        let numbers = Mutex<[UInt64]>([])
        // A budget of one byte keeps one photo in hand; handing each on takes 20 ms, far longer than a frame.
        let summary = try await session.photoOutput.captureBurst(count: 15, memoryBudget: 1) { photo in
            try? await Task.sleep(for: .milliseconds(20))
            numbers.withLock { $0.append(photo.frameNumber ?? 0) }
        }
        await session.stop()
        let taken = numbers.withLock { $0 }.sorted()
        #expect(summary.taken == 15 && taken.count == 15)
        #expect(!summary.skippedFrames.isEmpty, "the camera outran the photos in hand")
        let first = try #require(taken.first)
        let takenNumbers = Set(taken.map { Int($0 - first) })
        #expect(takenNumbers.isDisjoint(with: summary.skippedFrames), "a frame is taken or let pass, not both")
        #expect(Set(summary.skippedFrames).count == summary.skippedFrames.count)
        #expect(takenNumbers.union(summary.skippedFrames) == Set(0...(takenNumbers.max() ?? 0)), "every frame up to the last is accounted for")
    }

    @Test("Reconfiguring while running changes the size and adds and removes outputs", arguments: Camera.allCases)
    func reconfigureWhileRunning(camera: Camera) async throws {
        let folder = try TemporaryFolder()
        let session = CaptureSession(configuration: try Self.configuration("640x480@30", device: try await camera.device(in: folder)))
        let events = session.events()
        try await session.start()
        #expect(try await session.photoOutput.capture().width == 640)
        try await session.configure { configuration throws(CaptureError) in
            configuration.format = try FormatRequest(parsing: "320x240@30")
            configuration.videoData = VideoDataConfiguration(pixelFormat: "RGB")
        }
        #expect(await session.activeFormat?.width == 320)
        let photo = try await session.photoOutput.capture()
        #expect(photo.width == 320 && photo.height == 240)
        var iterator = session.videoDataOutput.frames().makeAsyncIterator()
        let frame = try #require(await iterator.next())
        #expect(frame.info?.format == "RGB" && frame.info?.width == 320)
        try await session.configure { $0.videoData = nil }  // the output removed, photos go on
        let delivered = session.videoDataOutput.deliveredFrameCount
        #expect(try await session.photoOutput.capture().width == 320)
        #expect(session.videoDataOutput.deliveredFrameCount == delivered)
        await session.stop()
        var sawReconfigured = false
        for await event in events {
            if event == .reconfigured { sawReconfigured = true }
            if event == .stopped { break }
        }
        #expect(sawReconfigured)
    }

    @Test("Switching cameras while running swaps the source under the running outputs")
    func switchCamera() async throws {
        var configuration = try Self.configuration("320x240@30", device: try DeviceDiscovery.device(named: "test:white"))
        configuration.videoData = VideoDataConfiguration(pixelFormat: "GRAY8")
        configuration.preview = PreviewConfiguration(sink: "fakesink")
        let session = CaptureSession(configuration: configuration)
        let events = session.events()
        let frames = session.videoDataOutput.frames(bufferingNewest: 1)
        try await session.start()
        #expect(try await session.photoOutput.capture().deviceName == "Test camera (white)")

        // A white camera, then a black one.
        var iterator = frames.makeAsyncIterator()
        let before = try #require(await iterator.next())
        #expect(try before.withUnsafeBytes { $0[0] } > 200)
        try await session.switchDevice(to: try DeviceDiscovery.device(named: "test:black"))
        #expect(try await session.photoOutput.capture().deviceName == "Test camera (black)")
        var after: UInt8 = 255
        for _ in 0..<10 {  // the same stream goes on, now with the new camera's frames
            guard let frame = await iterator.next() else { break }
            after = try frame.withUnsafeBytes { $0[0] }
            if after < 50 { break }
        }
        #expect(after < 50, "frames of the new camera arrive on the stream opened before the switch")

        // A change of camera through configure() is a switch too, here to an image used as a camera.
        let folder = try TemporaryFolder()
        let image = try await Camera.imageFile.device(in: folder)
        try await session.configure { $0.device = image }
        #expect(try await session.photoOutput.capture().deviceName == image.name)
        await session.stop()

        var seen: [String] = []
        for await event in events {
            switch event {
            case .started: seen.append("started")
            case .running: seen.append("running")
            case .switchedDevice(let name, _): seen.append("switched to \(name)")
            case .stopped: seen.append("stopped")
            default: seen.append("\(event)")
            }
            if event == .stopped { break }
        }
        #expect(seen == ["started", "running", "switched to Test camera (black)", "switched to \(image.name)", "stopped"])
    }

    @Test("The test camera's picture moves, so successive frames differ")
    func testCameraMoves() async throws {
        var configuration = try Self.configuration("320x240@30")
        configuration.videoData = VideoDataConfiguration(pixelFormat: "GRAY8")
        let session = CaptureSession(configuration: configuration)
        let frames = session.videoDataOutput.frames(bufferingNewest: 8)
        try await session.start()
        var iterator = frames.makeAsyncIterator()
        let first = try #require(await iterator.next()).withUnsafeBytes { Array($0) }
        let second = try #require(await iterator.next()).withUnsafeBytes { Array($0) }
        await session.stop()
        #expect(first != second)
    }

    @Test("The first frames after a start are dropped, as configured")
    func firstFramesDropped() async throws {
        var configuration = try Self.configuration("320x240@30")
        configuration.framesDroppedAfterStart = 6
        configuration.videoData = VideoDataConfiguration(pixelFormat: "GRAY8")
        let session = CaptureSession(configuration: configuration)
        let frames = session.videoDataOutput.frames(bufferingNewest: 64)
        try await session.start()
        var iterator = frames.makeAsyncIterator()
        // A live source numbers frames by the clock, so under load it may skip numbers; either way
        // the six dropped frames come before the first one delivered.
        let first = try #require(await iterator.next()?.number)
        #expect(first >= 6, "frames 0 to 5 never reach any output")
        await session.stop()
    }

    /// Writes a video whose first 20 frames brighten, as a camera adjusting its exposure does, then hold.
    static func brighteningVideo(at path: String, frames: Int = 60) async throws {
        let caps = try Caps("video/x-raw,format=I420,width=160,height=120,framerate=30/1")
        let writer = try Pipeline(describing: "appsrc name=frames format=time ! jpegenc ! avimux ! filesink location=\"\(path)\"")
        let source = try #require(writer.element(named: "frames", as: AppSource.self))
        source.caps = caps
        try await writer.beginStateChange(to: .playing)
        for index in 0..<frames {
            let luma = UInt8(min(200, 20 + index * 9))
            let frame = try Buffer(count: 160 * 120 * 3 / 2, presentationTime: ClockTime(.milliseconds(index * 1000 / 30)),
                                   duration: ClockTime(.nanoseconds(33_333_333))) { bytes in
                bytes.initializeMemory(as: UInt8.self, repeating: 128)
                for offset in 0..<(160 * 120) { bytes[offset] = luma }
            }
            try source.push(frame)
        }
        try source.endOfStream()
        try await writer.waitForEndOfStream()
        try await writer.stop()
    }

    @Test("The first photo waits until the picture stops brightening; without settling it does not")
    func exposureSettles() async throws {
        let folder = try TemporaryFolder()
        let video = folder.path("brightening.avi")
        try await Self.brighteningVideo(at: video)
        let camera = try DeviceDiscovery.device(named: "file:\(video)")

        let settled = CaptureSession(configuration: try Self.configuration("160x120@30", device: camera))
        try await settled.start()
        let patient = try await settled.photoOutput.capture()
        await settled.stop()
        // Frame 20 is the first at full brightness, shown 0.67 s into the video.
        #expect(try #require(patient.frameTime).seconds >= 0.66, "waited for the picture to settle")

        var hasty = try Self.configuration("160x120@30", device: camera)
        hasty.exposureSettling = nil
        let unsettled = CaptureSession(configuration: hasty)
        try await unsettled.start()
        // The frame the photo branch holds just before the request: the photo's can be no older.
        try #require(await until { (try? unsettled.photoOutput.feed.latest()) != nil }, "the video's first frame comes")
        let heldBefore = try #require(try unsettled.photoOutput.feed.latest()?.buffer?.presentationTime).seconds
        let early = try await unsettled.photoOutput.capture()
        await unsettled.stop()
        // It took the frame it had at the request, bright or not (a loaded machine may ask late,
        // when the picture is already bright): taken before the request, and no older than the
        // frame held just before it (so not an older one, nor one waited for after the request,
        // however old a busy machine's frame is; a video that had ended holds its last frame).
        let (asked, taken) = (try #require(early.requestTime).seconds, try #require(early.frameTime).seconds)
        #expect(heldBefore <= taken && taken <= asked + 0.001, "held the frame of \(heldBefore) s, asked at \(asked) s, took the frame of \(taken) s")
        if asked < 0.6 { #expect(taken < 0.66, "took the frame it had") }
    }

    @Test("An MJPEG camera's photo is its own JPEG, not a decode and a second encode")
    func mjpegCameraJPEGIsKept() async throws {
        var settings = PhotoSettings()
        settings.quality = 5
        settings.prioritization = .speed

        var mjpeg = try Self.configuration("640x480@30")
        mjpeg.format.mediaType = "image/jpeg"
        let camera = CaptureSession(configuration: mjpeg)
        #expect(try await camera.pipelineDescription().contains("jpegenc ! image/jpeg,framerate=30/1 ! tee name=camera_jpeg ! jpegdec"))
        try await camera.start()
        #expect(await camera.activeFormat?.mediaType == "image/jpeg")
        var kept: Photo?
        for _ in 0..<5 where kept == nil {  // a frame's JPEG may trail its decoded picture by a moment
            let photo = try await camera.photoOutput.capture(settings)
            if photo.resolvedSettings.isCameraJPEG { kept = photo }
        }
        await camera.stop()
        let photo = try #require(kept, "a photo of an MJPEG camera is its own JPEG")

        let raw = CaptureSession(configuration: try Self.configuration("640x480@30"))
        try await raw.start()
        let reencoded = try await raw.photoOutput.capture(settings)
        await raw.stop()
        #expect(!reencoded.resolvedSettings.isCameraJPEG)
        // The camera encodes at quality 85; quality 5 applies only to a photo camctl encodes. Each
        // file also carries its thumbnail (the same in both), which is left out of the comparison.
        let (own, encoded) = (photo.fileData.count - photo.thumbnailData.count, reencoded.fileData.count - reencoded.thumbnailData.count)
        #expect(own > 2 * encoded, "\(own) vs \(encoded) bytes")

        let folder = try TemporaryFolder()
        let file = folder.path("mjpeg.jpg")
        try Data(photo.fileData).write(to: URL(fileURLWithPath: file))
        #expect(try await run("exiftool", ["-s", "-s", "-s", "-ImageSize", "-Make", file]) == "640x480\ncamctl\n")
        #expect(try await run("exiftool", ["-validate", "-s", "-s", "-s", file]).hasPrefix("OK"))
        #expect(photo.resolvedSettings.thumbnailWidth == 320 && !photo.thumbnailData.isEmpty)
    }

    @Test("A still image file used as a camera")
    func imageFileCamera() async throws {
        let folder = try TemporaryFolder()
        let image = folder.path("still.jpg")
        let source = CaptureSession(configuration: try Self.configuration("800x600@30"))
        try await source.start()
        try Data(try await source.photoOutput.capture().fileData).write(to: URL(fileURLWithPath: image))
        await source.stop()

        let session = CaptureSession(configuration: try Self.configuration("400x300@15", device: try DeviceDiscovery.device(named: "file:\(image)")))
        try await session.start()
        let first = try await session.photoOutput.capture()
        var settings = PhotoSettings()
        settings.prioritization = .quality
        let second = try await session.photoOutput.capture(settings)
        #expect(first.width == 400 && first.height == 300)
        #expect(try #require(second.frameTime) > (first.frameTime ?? .zero), "the picture repeats as a live stream")
        await session.stop()
    }

    @Test("A slow frame consumer loses its own frames, counted, while photos go on")
    func slowConsumer() async throws {
        var configuration = try Self.configuration("320x240@30")
        configuration.videoData = VideoDataConfiguration()
        let session = CaptureSession(configuration: configuration)
        let frames = session.videoDataOutput.frames(bufferingNewest: 2)
        try await session.start()
        let consumer = Task {
            var consumed = 0
            for await _ in frames {
                consumed += 1
                try? await Task.sleep(for: .milliseconds(200))
                if consumed == 5 { break }
            }
            return consumed
        }
        var numbers: [UInt64] = []
        var settings = PhotoSettings()
        settings.prioritization = .quality
        for _ in 0..<10 { numbers.append(try #require(try await session.photoOutput.capture(settings).frameNumber)) }
        let consumed = await consumer.value
        #expect(numbers == numbers.sorted() && Set(numbers).count == 10)
        // Frames kept coming while the consumer dawdled: more than it read and its buffer holds,
        // the rest let go and counted, not waited for.
        let (delivered, dropped) = (session.videoDataOutput.deliveredFrameCount, session.videoDataOutput.droppedFrameCount)
        #expect(dropped > 0 && delivered > consumed + 2 && delivered >= consumed + dropped,
                "\(delivered) delivered, \(consumed) read, \(dropped) let go")
        await session.stop()
    }

    @Test("A camera that stops mid-stream interrupts the session, and captures fail clearly instead of hanging")
    func cameraStopsMidStream() async throws {
        let folder = try TemporaryFolder()
        let video = folder.path("short.avi")
        let writer = try Pipeline(describing: """
            videotestsrc num-buffers=15 ! video/x-raw,width=320,height=240,framerate=30/1 ! jpegenc ! avimux ! filesink location="\(video)"
            """)
        try await writer.play()
        try await writer.waitForEndOfStream()
        try await writer.stop()

        let session = CaptureSession(configuration: try Self.configuration("320x240@30", device: try DeviceDiscovery.device(named: "file:\(video)")))
        let events = session.events()
        try await session.start()
        var interruption: CaptureError?
        for await event in events {
            if case .interrupted(let error) = event { interruption = error; break }
        }
        #expect(interruption?.code == .interrupted)
        #expect(await session.status == .interrupted)
        // A capture while interrupted is told why the session is not running: the video ended.
        let error = await #expect(throws: CaptureError.self) { try await session.photoOutput.capture() }
        #expect(error?.code == .interrupted)
        #expect(error?.message.contains("the video \(video) ended") == true, "\(error?.message ?? "")")
    }

    @Test("An interrupted session resumes with the same settings once its camera is back")
    func resumeAfterInterruption() async throws {
        let folder = try TemporaryFolder()
        let video = folder.path("short.avi")
        // Eight seconds, then the camera "stops"; played again once it is back.
        try await Self.brighteningVideo(at: video, frames: 240)
        var configuration = try Self.configuration("160x120@30", device: try DeviceDiscovery.device(named: "file:\(video)"))
        configuration.exposureSettling = nil
        configuration.resumesAutomatically = true
        let session = CaptureSession(configuration: configuration)
        let events = session.events()
        try await session.start()
        var seen: [String] = []
        for await event in events {
            switch event {
            case .interrupted: seen.append("interrupted")
            case .resumed: seen.append("resumed")
            default: continue
            }
            if event == .resumed { break }
        }
        #expect(seen == ["interrupted", "resumed"])
        #expect(await session.status == .running)
        // The video plays for eight seconds each time it is back; a loaded full run once took
        // longer to take the photo, which then met the video's end: it is taken at the next return.
        var photo: Photo?
        for _ in 0..<3 where photo == nil {
            do {
                photo = try await session.photoOutput.capture()
            } catch {
                #expect(error.code == .interrupted, "\(error)")
                var waiting = events.makeAsyncIterator()
                while let event = await waiting.next(), event != .resumed {}
            }
        }
        #expect(photo?.width == 160 && photo?.height == 120)
        await session.stop()

        // A camera that does not come back: the wait ends with a clear error.
        try FileManager.default.removeItem(atPath: video)
        var gone = configuration
        gone.resumesAutomatically = false
        let manual = CaptureSession(configuration: gone)
        let failure = await #expect(throws: CaptureError.self) { try await manual.start() }
        #expect(failure != nil)
        let error = await #expect(throws: CaptureError.self) { try await manual.resume(waitingAtMost: .seconds(1)) }
        #expect(error?.message.hasSuffix("did not come back within 1.0 seconds; check that it is connected") == true)
    }

    @Test("A file that is not a picture or video fails to start with a clear error")
    func garbageFile() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("noise.avi")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: path))
        let refused = #expect(throws: CaptureError.self) { try DeviceDiscovery.device(named: "file:\(path)") }
        #expect(refused?.code == .unreadableFile)
        #expect(refused?.message == "\(path) is not a picture or video GStreamer can read; give an image (JPEG, PNG, …) or a video file after file:")
        // Used as a camera all the same, it fails to start with an error instead of hanging.
        let session = CaptureSession(configuration: try Self.configuration(device: .file(path)))
        let error = await #expect(throws: CaptureError.self) { try await session.start() }
        #expect(error?.message.isEmpty == false)
        #expect(await session.status == .failed)
    }

    @Test("Naming cameras: the test camera, missing files and devices, unknown names")
    func deviceNames() async throws {
        #expect(try DeviceDiscovery.device(named: "test").isTestCamera)
        #expect(try DeviceDiscovery.device(named: "test:ball").id == "test:ball")
        #expect(try DeviceDiscovery.devices().last?.isTestCamera == true)
        #expect(throws: CaptureError(.deviceNotFound, "/nonexistent.jpg does not exist; give the path of an image or video file after file:")) {
            try DeviceDiscovery.device(named: "file:/nonexistent.jpg")
        }
        #expect(throws: CaptureError(.deviceNotFound, "there is no camera at /dev/video42", remedy: .listCameras)) {
            try DeviceDiscovery.device(named: "/dev/video42")
        }
        let unknown = #expect(throws: CaptureError.self) { try DeviceDiscovery.device(named: "Brio") }
        #expect(unknown?.remedy == .useTestCamera)
        if try DeviceDiscovery.systemDevices().isEmpty {
            #expect(throws: CaptureError(.noCamera, "no camera is attached", remedy: .useTestCamera)) {
                try DeviceDiscovery.device(named: nil)
            }
        }
    }

    @Test("A session without photos holds no frame for them: no still branch, captures and snapshots refused in one sentence, a movie still has its thumbnail")
    func withoutPhotos() async throws {
        var configuration = try Self.configuration("320x240@30")
        configuration.capturesPhotos = false
        configuration.movies = true
        let session = CaptureSession(configuration: configuration)
        #expect(try await !session.pipelineDescription().contains("stills"))
        try await session.start()
        #expect(session.photoOutput.readiness == .noPhotos)
        let refused = await #expect(throws: CaptureError.self) { try await session.photoOutput.capture() }
        #expect(refused == CaptureError(.invalidSetting, "this session takes no photos; configure it with capturesPhotos to take them"))
        let noSnapshot = await #expect(throws: CaptureError.self) { try await session.photoOutput.snapshot() }
        #expect(noSnapshot == CaptureError(.invalidSetting, "this session takes no photos, so it holds no frame for a snapshot; configure it with capturesPhotos"))
        let folder = try TemporaryFolder()
        try await session.movieOutput.startRecording(to: folder.path("movie.mp4"), MovieSettings(maximumDuration: 0.5))
        await session.movieOutput.recordingEnded()
        let movie = try await session.movieOutput.stopRecording()
        #expect(!movie.thumbnail.isEmpty)
        await session.stop()
    }

    @Test("The pipeline can be described without starting, in gst-launch syntax that gst-launch accepts; neutral image settings build no element")
    func describePipeline() async throws {
        var configuration = try Self.configuration("320x240@30")
        configuration.preview = PreviewConfiguration(sink: "fakesink")
        configuration.videoData = VideoDataConfiguration(pixelFormat: "RGB")
        let neutral = try await CaptureSession(configuration: configuration).pipelineDescription()
        #expect(neutral.hasPrefix("videotestsrc name=camera is-live=true pattern=smpte horizontal-speed=4 ! capsfilter name=camera_output caps=video/x-raw,format=I420,width=320,height=240,framerate=30/1 ! identity name=camera_input ! tee name=split"))
        configuration.image.zoom = 2
        configuration.image.brightness = 0.1
        let description = try await CaptureSession(configuration: configuration).pipelineDescription()
        #expect(description.contains("identity name=camera_input ! identity name=image_look_start ! videocrop name=image_crop left=80 right=80 top=60 bottom=60"))
        #expect(description.contains("! videobalance name=image_balance brightness=0.1 "))
        #expect(description.contains("identity name=image_look_end ! tee name=split"))
        for text in [neutral, description] {
            let launched = try Pipeline(describing: text.replacingOccurrences(of: "is-live=true", with: "num-buffers=10"))
            try await launched.setState(.paused)
            try await launched.stop()
        }
    }
}

@Suite("Preview sinks that cannot open say why", .hangGuard(minutes: 3))
struct PreviewSinkTests {
    @Test("xvimagesink on a display without XVideo (Xvfb) names the sinks that work")
    func noXVideo() async throws {
        let display = try await VirtualDisplay()
        var configuration = try CaptureSessionTests.configuration("320x240@30")
        configuration.preview = PreviewConfiguration(sink: "xvimagesink display=\(display.name)")
        let session = CaptureSession(configuration: configuration)
        let error = await #expect(throws: CaptureError.self) { try await session.start() }
        #expect(error?.code == .sinkUnavailable)
        #expect(error?.message == "xvimagesink display=\(display.name) cannot show the preview: this display has no XVideo support (Xvfb has none)")
        #expect(error?.remedy == .useSink(["ximagesink", "autovideosink"]))
        #expect(session.photoOutput.readiness == .notRunning)
    }

    @Test("ximagesink on the same display shows the preview")
    func ximagesinkWorks() async throws {
        let display = try await VirtualDisplay()
        var configuration = try CaptureSessionTests.configuration("320x240@30")
        configuration.preview = PreviewConfiguration(sink: "ximagesink display=\(display.name)")
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        // The screen is looked at until it shows the test camera's SMPTE bars: yellow, cyan and
        // magenta, each a seventh of the 320-pixel-wide picture for two thirds of its height (about
        // 7,300 pixels a bar), where a screen without the preview is black.
        var seen = (yellow: 0, cyan: 0, magenta: 0)
        let shown = await until {
            seen = VirtualDisplay.smpteBars(in: (try? await display.screenshot()) ?? [])
            return [seen.yellow, seen.cyan, seen.magenta].allSatisfy { $0 > 320 / 7 * 100 }
        }
        #expect(shown, "yellow, cyan and magenta bars on the screen: \(seen)")
        session.previewOutput.pause()
        #expect(session.previewOutput.isPaused)
        _ = try await session.photoOutput.capture()  // photos go on while the preview is paused
        session.previewOutput.resume()
        await session.stop()
    }

    @Test("A window sink without any display says so")
    func noDisplay() async throws {
        var configuration = try CaptureSessionTests.configuration("320x240@30")
        configuration.preview = PreviewConfiguration(sink: "ximagesink display=:77")
        let session = CaptureSession(configuration: configuration)
        let error = await #expect(throws: CaptureError.self) { try await session.start() }
        #expect(error?.code == .sinkUnavailable)
        #expect(error?.message.hasPrefix("the preview window cannot open: no X display is available") == true)
    }

    @Test("An unknown sink names the sinks there are")
    func unknownSink() async throws {
        var configuration = try CaptureSessionTests.configuration("320x240@30")
        configuration.preview = PreviewConfiguration(sink: "nosuchsink")
        let session = CaptureSession(configuration: configuration)
        let error = await #expect(throws: CaptureError.self) { try await session.start() }
        #expect(error == CaptureError(.sinkUnavailable, "there is no video sink called \"nosuchsink\"; use autovideosink, ximagesink, xvimagesink or fakesink"))
    }
}
