import CameraKit
import Foundation
import GStreamer
import PhotoLibrary

/// Starts a test-camera session for a benchmark.
func benchmarkSession(width: Int, height: Int, frameRate: Int, videoData: Bool = false) async throws -> CaptureSession {
    var configuration = SessionConfiguration(camera: .testCamera())
    configuration.format = FormatRequest(width: width, height: height, frameRate: Fraction(frameRate))
    if videoData { configuration.videoData = VideoDataConfiguration() }
    let session = CaptureSession(configuration: configuration)
    try await session.start()
    _ = try await session.photoOutput.capture()  // warm: frames flow, encoders negotiated
    return session
}

/// Shutter lag at one size: from the capture request to the JPEG (with EXIF and thumbnail) in
/// memory, and to the photo durable in the library (fsynced file and index row), against
/// GStreamer's camerabin from `start-capture` to `image-done` (its JPEG written to a file).
struct ShutterLagBenchmark {
    let width: Int
    let height: Int
    let frameRate: Int

    func run(runs: Int) async throws -> [BenchmarkRow] {
        let captures = max(runs, 10)
        let session = try await benchmarkSession(width: width, height: height, frameRate: frameRate)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-library-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = try PhotoLibrary(folder: folder)
        var inMemory: [Double] = [], durable: [Double] = [], ages: [Double] = [], deferred: [Double] = [], immediate: [Double] = []
        for _ in 0..<captures {
            // A HEIC finished later: its proxy, thumbnail and spooled frame durable in the library.
            var heic = PhotoSettings()
            (heic.prioritization, heic.codec, heic.defersHEVCProcessing) = (.speed, .hevc, true)
            let requested = ContinuousClock.now
            let proxy = try await session.photoOutput.capture(heic)
            try library.add(NewPhoto(data: proxy.fileData, thumbnail: proxy.thumbnailData, codec: "jpeg", width: proxy.width,
                                     height: proxy.height, capturedAt: proxy.requestedAt, device: proxy.deviceName,
                                     pending: proxy.pendingHEVC))
            deferred.append((ContinuousClock.now - requested).seconds * 1000)
            try await Task.sleep(for: .milliseconds(50))
            // The same HEIC encoded at once (--now).
            heic.defersHEVCProcessing = false
            let encodeStart = ContinuousClock.now
            let final = try await session.photoOutput.capture(heic)
            try library.add(NewPhoto(data: final.fileData, thumbnail: final.thumbnailData, codec: "hevc", width: final.width,
                                     height: final.height, capturedAt: final.requestedAt, device: final.deviceName))
            immediate.append((ContinuousClock.now - encodeStart).seconds * 1000)
            try await Task.sleep(for: .milliseconds(50))
            var settings = PhotoSettings()
            settings.prioritization = .speed
            let start = ContinuousClock.now
            let photo = try await session.photoOutput.capture(settings)
            let encoded = ContinuousClock.now
            try library.add(NewPhoto(data: photo.fileData, thumbnail: photo.thumbnailData, codec: "jpeg", width: photo.width,
                                     height: photo.height, capturedAt: photo.requestedAt, device: photo.deviceName))
            let saved = ContinuousClock.now
            inMemory.append((encoded - start).seconds * 1000)
            durable.append((saved - start).seconds * 1000)
            if let request = photo.requestTime, let frame = photo.frameTime, request >= frame {
                ages.append(Double(request.nanoseconds - frame.nanoseconds) / 1e6)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        await session.stop()
        let camerabin = Measurement(samples: try await CameraBinReference.shutterLag(width: width, height: height, captures: captures))
        let age = Measurement(samples: ages.isEmpty ? [0] : ages)
        let reference = "camerabin start-capture to image-done (file written)"
        let frameInterval = 1000 / Double(frameRate)
        let inMemoryRow = BenchmarkRow(
            name: "Shutter lag, request to JPEG in memory, \(width)x\(height) (frame age at request \(age.formatted()) ms)",
            unit: "ms", camctl: Measurement(samples: inMemory), reference: camerabin, referenceName: reference)
        return [
            inMemoryRow.goal(String(format: "≤ 0.5, frame age ≤ %.0f ms", frameInterval),
                             met: inMemoryRow.ratio <= 0.5 && age.median <= frameInterval),
            BenchmarkRow(name: "Shutter lag, request to photo durable in the library (fsync and index row), \(width)x\(height)",
                         unit: "ms", camctl: Measurement(samples: durable), reference: camerabin,
                         referenceName: reference).goal(ratioAtMost: 0.5),
            BenchmarkRow(name: "Shutter lag with --hevc (finished later), request to proxy and spooled frame durable in the library, \(width)x\(height)",
                         unit: "ms", camctl: Measurement(samples: deferred), reference: Measurement(samples: durable),
                         referenceName: "camctl's JPEG photo durable in the library, same run").goal(ratioAtMost: 1.2),
            BenchmarkRow(name: "Shutter lag with --hevc --now (encoded at once), request to HEIC durable in the library, \(width)x\(height)",
                         unit: "ms", camctl: Measurement(samples: immediate), reference: Measurement(samples: durable),
                         referenceName: "camctl's JPEG photo durable in the library, same run"),
        ]
    }
}

/// Photos per second in a burst of 30, against gst-launch running the same encoder on the same source.
struct BurstBenchmark {
    let width: Int
    let height: Int
    let frameRate: Int
    var codec: PhotoSettings.Codec = .jpeg
    var photos = 30

    /// The encoder camctl uses for the codec, on the same source, as gst-launch runs it alone.
    private var referencePipeline: String {
        let source = "videotestsrc num-buffers=\(photos) ! video/x-raw,format=I420,width=\(width),height=\(height)"
        switch codec {
        case .jpeg:
            return "\(source) ! jpegenc ! fakesink sync=false"
        case .hevc:
            return "\(source),colorimetry=bt709 ! x265enc speed-preset=ultrafast option-string=crf=22:info=0 ! h265parse "
                + "! video/x-h265,stream-format=hvc1,alignment=au,profile=main-still-picture ! fakesink sync=false"
        }
    }

    func run(runs: Int) async throws -> BenchmarkRow {
        let session = try await benchmarkSession(width: width, height: height, frameRate: frameRate)
        var settings = PhotoSettings()
        settings.codec = codec
        _ = try await session.photoOutput.capture(settings)  // the HEVC encoders start with the first HEIC photo
        var camctl: [Double] = [], reference: [Double] = []
        for _ in 0..<runs {
            let output = session.photoOutput
            let seconds = try await measureSeconds { _ = try await output.captureBurst(count: photos, settings) }
            camctl.append(Double(photos) / seconds)
            reference.append(try gstLaunchFramesPerSecond(referencePipeline, frames: photos))
        }
        await session.stop()
        let name = codec == .jpeg ? "JPEG" : "HEIC"
        let encoder = codec == .jpeg ? "jpegenc" : "x265enc (camctl's still settings)"
        return BenchmarkRow(
            name: "Burst of \(photos) \(name) photos, \(width)x\(height) (camera at \(frameRate) fps)",
            unit: "photos/s", camctl: Measurement(samples: camctl), reference: Measurement(samples: reference),
            referenceName: "gst-launch videotestsrc ! \(encoder) ! fakesink").goal(ratioAtLeast: 0.9)
    }
}

/// The frame rate VideoDataOutput sustains from a live 1080p camera, against the camera's own rate.
struct VideoDataRateBenchmark {
    let frameRate = 120

    func run(runs: Int) async throws -> BenchmarkRow {
        let session = try await benchmarkSession(width: 1920, height: 1080, frameRate: frameRate, videoData: true)
        var rates: [Double] = []
        for _ in 0..<runs {
            let frames = session.videoDataOutput.frames(bufferingNewest: 4)
            var received = 0
            let seconds = try await measureSeconds {
                for await frame in frames {
                    _ = try frame.withUnsafeBytes { $0[0] }
                    received += 1
                    if received == 240 { break }
                }
            }
            rates.append(Double(received) / seconds)
        }
        await session.stop()
        return BenchmarkRow(
            name: "VideoDataOutput from a live 1920x1080 camera at \(frameRate) fps",
            unit: "frames/s", camctl: Measurement(samples: rates),
            reference: Measurement(samples: Array(repeating: Double(frameRate), count: runs)),
            referenceName: "the camera's rate").goal(ratioAtLeast: 0.99)
    }
}
