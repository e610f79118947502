@testable import CameraKit
import Foundation
import GStreamer
import Testing

@Suite("PipeWire cameras from pw-dump", .hangGuard(minutes: 3))
struct PipeWireCamerasTests {
    @Test("Video/Source nodes become cameras read by pipewiresrc, with their formats; other nodes are left out")
    func parseDump() async throws {
        let dump = """
            [
              {"id": 30, "type": "PipeWire:Interface:Node", "info": {"props": {"media.class": "Audio/Sink", "object.serial": 30}}},
              {"id": 42, "type": "PipeWire:Interface:Node", "info": {
                "props": {"media.class": "Video/Source", "object.serial": 57, "node.description": "HD Pro Webcam C920",
                          "object.path": "v4l2:/dev/video0", "api.libcamera.location": "front"},
                "params": {"EnumFormat": [
                  {"mediaType": "video", "mediaSubtype": "raw", "format": "YUY2",
                   "size": {"width": 640, "height": 480}, "framerate": {"default": {"num": 30, "denom": 1}, "alt1": {"num": 15, "denom": 1}}},
                  {"mediaType": "video", "mediaSubtype": "mjpg", "size": {"width": 1920, "height": 1080}, "framerate": {"num": 30, "denom": 1}}
                ]}}},
              {"id": 43, "type": "PipeWire:Interface:Node", "info": {"props": {"media.class": "Video/Source", "object.serial": 60,
                "node.name": "virtual"}}}
            ]
            """
        let cameras = PipeWireCameras.cameras(inDump: Data(dump.utf8))
        #expect(cameras.map(\.id) == ["/dev/video0", "virtual"])
        let webcam = try #require(cameras.first)
        #expect(webcam.name == "HD Pro Webcam C920" && webcam.position == .front)
        #expect(webcam.kind == .system(path: "/dev/video0", api: "pipewire", source: "pipewiresrc target-object=57"))
        #expect(webcam.capabilities == [
            VideoCapability(mediaType: "video/x-raw", pixelFormat: "YUY2", widths: 640...640, heights: 480...480,
                            frameRates: .discrete([Fraction(15), Fraction(30)])),
            VideoCapability(mediaType: "image/jpeg", pixelFormat: nil, widths: 1920...1920, heights: 1080...1080,
                            frameRates: .discrete([Fraction(30)])),
        ])
    }

    @Test("A format choice that names its default again among its alternatives gives each capability once")
    func repeatedChoice() async throws {
        // As PipeWire's own test camera offers itself: RGB by default, RGB or UYVY.
        let dump = """
            [{"type": "PipeWire:Interface:Node", "info": {"props": {"media.class": "Video/Source", "object.serial": 40, "node.name": "test"},
              "params": {"EnumFormat": [{"mediaType": "video", "mediaSubtype": "raw", "format": {"default": "RGB", "alt1": "RGB", "alt2": "UYVY"},
                "size": {"width": 320, "height": 240}, "framerate": {"num": 25, "denom": 1}}]}}}]
            """
        let camera = try #require(PipeWireCameras.cameras(inDump: Data(dump.utf8)).first)
        #expect(camera.capabilities.map(\.pixelFormat) == ["RGB", "UYVY"])
    }

    @Test("Audio/Source nodes become microphones read by pipewiresrc, virtual ones after; a speaker is none")
    func microphonesInDump() async {
        let dump = """
            [
              {"type": "PipeWire:Interface:Node", "info": {"props": {"media.class": "Audio/Sink", "object.serial": 30, "node.description": "Speakers"}}},
              {"type": "PipeWire:Interface:Node", "info": {"props": {"media.class": "Audio/Source/Virtual", "object.serial": 71,
                "node.description": "Noise-free microphone"}}},
              {"type": "PipeWire:Interface:Node", "info": {"props": {"media.class": "Audio/Source", "object.serial": 58,
                "node.description": "HD Pro Webcam C920 Analog Stereo"}}},
              {"type": "PipeWire:Interface:Node", "info": {"props": {"media.class": "Audio/Source", "node.description": "no serial"}}}
            ]
            """
        let found = Microphone.pipeWireMicrophones(inDump: Data(dump.utf8))
        #expect(found.map(\.name) == ["HD Pro Webcam C920 Analog Stereo", "Noise-free microphone"])
        #expect(found.map(\.source) == ["pipewiresrc target-object=58", "pipewiresrc target-object=71"])
    }

    @Test("What changed while pw-dump ran, printed after the dump, counts: a camera removed is gone, one changed has its change")
    func dumpWithUpdates() async {
        let dump = """
            [
              {"id": 36, "type": "PipeWire:Interface:Node", "info": {"props": {"media.class": "Video/Source", "object.serial": 343,
                "node.description": "Lab camera"}, "state": "suspended"}},
              {"id": 39, "type": "PipeWire:Interface:Node", "info": {"props": {"media.class": "Video/Source", "object.serial": 350,
                "node.description": "Unplugged camera"}}}
            ]
            [
              {"id": 39, "info": null},
              {"id": 36, "info": {"state": "running"}}
            ]
            """
        #expect(PipeWireCameras.cameras(inDump: Data(dump.utf8)).map(\.name) == ["Lab camera"])
        let objects = PipeWireDump.objects(inDump: Data(dump.utf8))
        #expect(objects.count == 1)
        #expect(objects.first?["info"]?["state"]?.string == "running")
        #expect(objects.first?["info"]?["props"]?["node.description"]?.string == "Lab camera", "what did not change is kept")
    }

    @Test("A dump that is not JSON, or not PipeWire's, gives no cameras")
    func badDump() async {
        #expect(PipeWireCameras.cameras(inDump: Data("not json".utf8)).isEmpty)
        #expect(PipeWireCameras.cameras(inDump: Data(#"{"a": 1}"#.utf8)).isEmpty)
        #expect(PipeWireCameras.cameras(inDump: Data(#"[{"id": 1, "type": "PipeWire:Interface:Node"}] [{"id": "#.utf8)).isEmpty)
    }
}
