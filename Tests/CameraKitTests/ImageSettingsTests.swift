import CameraKit
import Foundation
import GStreamer
import TestSupport
import Testing

/// Filters, zoom, aspect ratio and orientation, judged on the photos' and frames' pixels.
@Suite("Image settings on the session's photos and frames", .hangGuard(minutes: 3))
struct ImageSettingsTests {
    /// A session on a still picture (GStreamer's colour gradient) used as a camera, at 640x480.
    static func session(_ image: ImageSettings = ImageSettings(), size: String = "640x480@30",
                        in folder: TemporaryFolder) async throws -> CaptureSession {
        let device = try await CaptureSessionTests.Camera.imageFile.device(in: folder)
        var configuration = try CaptureSessionTests.configuration(size, device: device)
        configuration.image = image
        configuration.videoData = VideoDataConfiguration(pixelFormat: "I420")
        let session = CaptureSession(configuration: configuration)
        try await session.start()
        return session
    }

    @Test("Mono photos are grey and sepia photos brown (R > G > B), and the frames have the same look")
    func toneFilters() async throws {
        let folder = try TemporaryFolder()
        for filter in [ImageFilter.mono, .sepia] {
            var image = ImageSettings()
            image.filters = [filter]
            let session = try await Self.session(image, in: folder)
            let photo = try await session.photoOutput.capture()
            var frames = session.videoDataOutput.frames().makeAsyncIterator()
            let frame = try #require(await frames.next())
            await session.stop()
            let picture = try await DecodedPicture(jpeg: photo.fileData)
            let chroma = try ChromaMeans(frame)
            switch filter {
            case .mono:
                #expect(picture.meanChannelSpread < 3, "mean |R-G|+|G-B| \(picture.meanChannelSpread)")
                #expect(abs(chroma.blue - 128) < 2 && abs(chroma.red - 128) < 2, "frame chroma \(chroma)")
            default:
                let (red, green, blue) = picture.means
                #expect(red > green + 5 && green > blue + 5, "sepia means \(picture.means)")
                #expect(chroma.blue < 120 && chroma.red > 135, "frame chroma \(chroma)")
            }
        }
    }

    @Test("Filters and zoom change while running without restarting the camera or losing a photo; back to neutral, the picture's elements go")
    func liveChanges() async throws {
        let folder = try TemporaryFolder()
        let session = try await Self.session(in: folder)
        let events = session.events()
        let plain = try await session.photoOutput.capture()
        var image = ImageSettings()
        image.filters = [.heat]
        try await session.changeImage(to: image)
        let heat = try await session.photoOutput.capture(after: plain)
        image.filters = [.mono]
        image.zoom = 2
        try await session.changeImage(to: image)
        var mono = try await session.photoOutput.capture(after: heat)
        // Zoom alone, again and again: the crop's sides change while frames flow.
        for factor in [1.5, 3, 1.25, 2] {
            image.zoom = factor
            try await session.changeImage(to: image)
            mono = try await session.photoOutput.capture(after: mono)
        }
        // Back to neutral settings: the picture's bin is taken out, and photos are plain again.
        try await session.changeImage(to: ImageSettings())
        #expect(try await !session.pipelineDescription().contains("image_look_start"))
        let plainAgain = try await session.photoOutput.capture(after: mono)
        #expect(await session.status == .running)
        await session.stop()
        // The camera's frame count went on: a restarted camera numbers its frames from 0 again.
        let numbers = [plain, heat, mono, plainAgain].compactMap(\.frameNumber)
        #expect(numbers.count == 4 && numbers == numbers.sorted() && Set(numbers).count == 4, "frame numbers \(numbers)")
        var started = 0
        for await event in events {
            if case .started = event { started += 1 }
            if case .stopped = event { break }
        }
        #expect(started == 0, "the session started again")
        let heatMeans = try await DecodedPicture(jpeg: heat.fileData).means, plainMeans = try await DecodedPicture(jpeg: plain.fileData).means
        #expect(abs(heatMeans.0 - plainMeans.0) + abs(heatMeans.1 - plainMeans.1) + abs(heatMeans.2 - plainMeans.2) > 20)
        let monoSpread = try await DecodedPicture(jpeg: mono.fileData).meanChannelSpread
        #expect(monoSpread < 3)
        #expect((mono.width, mono.height) == (640, 480))
        let againMeans = try await DecodedPicture(jpeg: plainAgain.fileData).means
        #expect(abs(againMeans.0 - plainMeans.0) < 3 && abs(againMeans.1 - plainMeans.1) < 3 && abs(againMeans.2 - plainMeans.2) < 3,
                "\(againMeans) against \(plainMeans)")
    }

    @Test("Zoom 2 keeps the photo's size and shows the middle quarter of the frame")
    func zoom() async throws {
        let folder = try TemporaryFolder()
        var session = try await Self.session(in: folder)
        let whole = try await DecodedPicture(jpeg: try await session.photoOutput.capture().fileData)
        await session.stop()
        var image = ImageSettings()
        image.zoom = 2
        session = try await Self.session(image, in: folder)
        let photo = try await session.photoOutput.capture()
        await session.stop()
        #expect((photo.width, photo.height) == (640, 480))
        let zoomed = try await DecodedPicture(jpeg: photo.fileData)
        #expect((zoomed.width, zoomed.height) == (640, 480))
        // Block by block, the zoomed photo has the colours of the middle quarter of the whole one.
        var largest = 0.0
        for row in 0..<4 {
            for column in 0..<4 {
                let inZoomed = zoomed.means(x: Double(column) / 4, y: Double(row) / 4, width: 0.25, height: 0.25)
                let inWhole = whole.means(x: 0.25 + Double(column) / 8, y: 0.25 + Double(row) / 8, width: 0.125, height: 0.125)
                largest = max(largest, abs(inZoomed.0 - inWhole.0), abs(inZoomed.1 - inWhole.1), abs(inZoomed.2 - inWhole.2))
            }
        }
        #expect(largest < 8, "largest block difference \(largest)")
    }

    @Test("Aspect 1:1 at 1920x1080 gives 1080x1080; rotation and mirroring are recorded as EXIF orientations")
    func aspectAndOrientation() async throws {
        let folder = try TemporaryFolder()
        var image = ImageSettings()
        image.aspectRatio = try AspectRatio(parsing: "1:1")
        image.rotation = 90
        let session = try await Self.session(image, size: "1920x1080@30", in: folder)
        let square = try await session.photoOutput.capture()
        #expect((square.width, square.height) == (1080, 1080))
        let decoded = try await DecodedPicture(jpeg: square.fileData)
        #expect((decoded.width, decoded.height) == (1080, 1080))
        #expect(square.orientation == 6)
        image.mirrorsPhotos = true
        image.rotation = 0
        image.aspectRatio = nil
        try await session.changeImage(to: image)
        let mirrored = try await session.photoOutput.capture(after: square)
        await session.stop()
        #expect(mirrored.orientation == 2)
        #expect((mirrored.width, mirrored.height) == (1920, 1080))
    }

    @Test("Settings out of range are refused with the setting named")
    func outOfRange() async throws {
        var image = ImageSettings()
        image.zoom = 20
        let session = CaptureSession()
        await #expect(throws: CaptureError.self) { try await session.changeImage(to: image) }
        do {
            try await session.changeImage(to: image)
        } catch {
            #expect(error.code == .invalidSetting)
            #expect(error.message.contains("zoom"))
        }
    }
}

/// A JPEG decoded to RGB by GStreamer, for colour statistics.
struct DecodedPicture {
    let width: Int
    let height: Int
    let rgb: [UInt8]

    init(jpeg: [UInt8]) async throws {
        let pipeline = try Pipeline(describing: "appsrc name=input ! jpegdec ! videoconvert ! video/x-raw,format=RGB ! appsink name=output")
        let input = try #require(pipeline.element(named: "input", as: AppSource.self))
        let output = try #require(pipeline.element(named: "output", as: AppSink.self))
        try input.setProperty("caps", .string("image/jpeg"))
        try await pipeline.beginStateChange(to: .playing)
        try input.push(try jpeg.withUnsafeBytes { try Buffer(copying: $0) })
        let sample = try #require(output.pullSample(timeout: .seconds(120)))
        let info = try #require(sample.videoInfo)
        (width, height) = (info.width, info.height)
        let stride = info.planes[0].stride
        rgb = try sample.withUnsafeBytes { bytes in
            (0..<info.height).flatMap { row in Array(bytes[row * stride..<row * stride + info.width * 3]) }
        }
        try await pipeline.stop()
    }

    /// The mean red, green and blue of a region given in fractions of the picture.
    func means(x: Double = 0, y: Double = 0, width regionWidth: Double = 1, height regionHeight: Double = 1) -> (Double, Double, Double) {
        let left = Int(x * Double(width)), top = Int(y * Double(height))
        let right = Int((x + regionWidth) * Double(width)), bottom = Int((y + regionHeight) * Double(height))
        var sums = (0, 0, 0)
        for row in top..<bottom {
            for column in left..<right {
                let index = (row * width + column) * 3
                sums = (sums.0 + Int(rgb[index]), sums.1 + Int(rgb[index + 1]), sums.2 + Int(rgb[index + 2]))
            }
        }
        let count = Double(max(1, (right - left) * (bottom - top)))
        return (Double(sums.0) / count, Double(sums.1) / count, Double(sums.2) / count)
    }

    var means: (Double, Double, Double) { means() }

    /// The mean over all pixels of |R − G| + |G − B|: 0 for a grey picture.
    var meanChannelSpread: Double {
        var total = 0
        for index in stride(from: 0, to: rgb.count, by: 3) {
            total += abs(Int(rgb[index]) - Int(rgb[index + 1])) + abs(Int(rgb[index + 1]) - Int(rgb[index + 2]))
        }
        return Double(total) / Double(rgb.count / 3)
    }
}

/// The mean Cb and Cr of an I420 frame: 128 for a grey picture.
struct ChromaMeans: CustomStringConvertible {
    let blue: Double
    let red: Double

    init(_ frame: VideoFrame) throws {
        let info = try #require(frame.info)
        let chromaWidth = (info.width + 1) / 2, chromaHeight = (info.height + 1) / 2
        (blue, red) = try frame.withUnsafeBytes { bytes in
            func mean(_ plane: VideoInfo.Plane) -> Double {
                var total = 0
                for row in 0..<chromaHeight {
                    for column in 0..<chromaWidth { total += Int(bytes[plane.offset + row * plane.stride + column]) }
                }
                return Double(total) / Double(chromaWidth * chromaHeight)
            }
            return (mean(info.planes[1]), mean(info.planes[2]))
        }
    }

    var description: String { String(format: "Cb %.1f, Cr %.1f", blue, red) }
}
