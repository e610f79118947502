import Foundation
import GStreamer
import Testing

@Suite("Device discovery", .hangGuard(minutes: 3))
struct DeviceMonitorTests {
    @Test("The device monitor runs; on a machine without cameras it finds none")
    func monitorRuns() async throws {
        let devices = try DeviceMonitor(classes: ["Video/Source"]).devices()
        let hasVideoNodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
            .contains { $0.hasPrefix("video") }
        if !hasVideoNodes {
            #expect(devices.isEmpty)
        }
        for device in devices {
            #expect(!device.displayName.isEmpty)
            #expect(device.deviceClass.contains("Video"))
        }
    }

    @Test("Watching for hot-plugged cameras starts and stops cleanly; nothing is plugged in here")
    func watchForChanges() async throws {
        let monitor = try DeviceMonitor(classes: ["Video/Source"])
        let changes = try monitor.changes()
        let hasVideoNodes = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? [])
            .contains { $0.hasPrefix("video") }
        #expect(try monitor.devices().isEmpty || hasVideoNodes, "listing works while watching")
        let watcher = Task {
            var seen = 0
            for await _ in changes { seen += 1 }
            return seen
        }
        monitor.stopWatching()
        watcher.cancel()
        let seen = await watcher.value
        if !hasVideoNodes { #expect(seen == 0) }
    }

    /// A Logitech C920 as the device monitor reports it (shared/notes/webcams.md).
    static let c920 = """
        video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, pixel-aspect-ratio=(fraction)1/1, \
        framerate=(fraction){ 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1 }; \
        video/x-raw, format=(string)YUY2, width=(int)1920, height=(int)1080, pixel-aspect-ratio=(fraction)1/1, framerate=(fraction)5/1; \
        video/x-raw, format=(string)YUY2, width=(int)2304, height=(int)1536, pixel-aspect-ratio=(fraction)1/1, framerate=(fraction)2/1; \
        image/jpeg, width=(int)1920, height=(int)1080, pixel-aspect-ratio=(fraction)1/1, \
        framerate=(fraction){ 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1 }
        """

    @Test("A webcam's caps become one capability per format and size, with its frame rates")
    func webcamCapabilities() async throws {
        let capabilities = VideoCapability.list(from: try Caps(Self.c920))
        #expect(capabilities.map(\.description) == [
            "YUY2 640x480 @ 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1",
            "YUY2 1920x1080 @ 5/1",
            "YUY2 2304x1536 @ 2/1",
            "image/jpeg 1920x1080 @ 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1",
        ])
        let fullHDRaw = capabilities[1]
        #expect(!fullHDRaw.isCompressed && fullHDRaw.frameRates.maximum == Fraction(5))
        #expect(!fullHDRaw.frameRates.contains(Fraction(30)))
        let fullHDJPEG = capabilities[3]
        #expect(fullHDJPEG.isCompressed && fullHDJPEG.frameRates.contains(Fraction(30)))
    }

    @Test("Ranges and format lists, as the test source and libcamera report them")
    func rangesAndLists() async throws {
        let caps = try Caps("video/x-raw, format=(string){ NV12, NV21 }, width=(int)[ 64, 4056 ], height=(int)[ 64, 3040 ], framerate=(fraction)[ 0/1, 2147483647/1 ]")
        let capabilities = VideoCapability.list(from: caps)
        #expect(capabilities.count == 2)
        #expect(capabilities[0].pixelFormat == "NV12" && capabilities[1].pixelFormat == "NV21")
        #expect(capabilities[0].widths == 64...4056)
        #expect(capabilities[0].frameRates.contains(Fraction(30)))
        #expect(VideoCapability.list(from: try Caps("audio/x-raw, rate=48000")).isEmpty)
    }
}
