import Foundation
import TestSupport
import Testing

@Suite("camctl serve --rtsp: the live picture as H.264 over RTSP", .startsPrograms)
struct RTSPPreviewTests {
    /// A served camera with RTSP, and its stream's address.
    static func served(listen host: String = "127.0.0.1") async throws -> (ServedCamera, port: Int) {
        let served = try await ServedCamera(listen: host, extra: ["--rtsp", "0"])
        let line = try #require(served.process.outputSoFar.split(separator: "\n").first { $0.contains("\"serving\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return (served, try #require(object["rtsp_port"] as? Int))
    }

    static func encoded(_ served: ServedCamera) async throws -> Int {
        try await status(served).encoded
    }

    /// The H.264 frames encoded for RTSP, and the frames the camera made, so far.
    static func status(_ served: ServedCamera) async throws -> (encoded: Int, camera: Int) {
        let object = try await served.json("/api/status").object
        return (try #require(object["h264_frames_encoded"] as? Int), try #require(object["camera_frames"] as? Int))
    }

    @Test("gst-discoverer-1.0 and ffprobe read /preview as H.264 at the preview's size, at once; two viewers share one encode, and none encodes nothing")
    func stream() async throws {
        let (served, port) = try await Self.served()
        defer { served.process.send(SIGTERM) }
        let url = "rtsp://127.0.0.1:\(port)/preview"
        #expect(try await Self.encoded(served) == 0, "nothing is encoded before anyone watches")

        async let discovered = ChildProcess.run("gst-discoverer-1.0", ["-t", "20", url])
        async let probed = ChildProcess.run("ffprobe", ["-v", "error", "-rw_timeout", "20000000", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", url])
        let (discoverer, ffprobe) = try await (discovered, probed)
        #expect(discoverer.standardOutput.contains("H.264") && discoverer.standardOutput.contains("Width: 640")
                && discoverer.standardOutput.contains("Height: 480"), "\(discoverer.standardOutput)")
        #expect(ffprobe.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,640,480", "\(ffprobe.standardOutput) \(ffprobe.standardError)")

        // Two viewers decoding three seconds each, together, share one encode: at most one per
        // frame the camera made meanwhile (give or take the few on their way when counted).
        let before = try await Self.status(served)
        async let first = ChildProcess.run("ffmpeg", ["-v", "error", "-i", url, "-t", "3", "-f", "null", "-"])
        async let second = ChildProcess.run("ffmpeg", ["-v", "error", "-rtsp_transport", "tcp", "-i", url, "-t", "3", "-f", "null", "-"])
        let (one, two) = try await (first, second)
        #expect(one.status == 0 && two.status == 0, "\(one.standardError) \(two.standardError)")
        let after = try await Self.status(served)
        let (encodes, made) = (after.encoded - before.encoded, after.camera - before.camera)
        #expect(encodes > 0 && encodes <= made + 3, "\(encodes) encodes of \(made) camera frames for two viewers")

        // Both gone: the media ends, and the session encodes no more while the camera goes on.
        let idle = await until {
            guard let start = try? await Self.status(served) else { return false }
            guard await until({ (try? await Self.status(served).camera) ?? 0 >= start.camera + 30 }) else { return false }
            return (try? await Self.status(served).encoded) == start.encoded
        }
        #expect(idle, "no viewer, no encode")
    }

    @Test("Beyond loopback a viewer logs in as camctl with the access token; without it, 401")
    func token() async throws {
        let (served, port) = try await Self.served(listen: "0.0.0.0")
        defer { served.process.send(SIGTERM) }
        let token = try String(contentsOfFile: served.camctl.library.path("serve-token"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let refused = try await ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", "rtsp://127.0.0.1:\(port)/preview"])
        #expect(refused.status != 0 && refused.standardError.contains("401"), "\(refused.standardError)")
        let allowed = try await ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", "rtsp://camctl:\(token)@127.0.0.1:\(port)/preview"])
        #expect(allowed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "h264", "\(allowed.standardError)")
    }

    @Test("An RTSP port already taken is named, with what to do, exit 69")
    func portTaken() async throws {
        let served = try await ServedCamera()
        defer { served.process.send(SIGTERM) }
        let camctl = try Camctl()
        let result = try await ChildProcess.run(ChildProcess.buildFolder.appendingPathComponent("camctl").path,
                                                     ["serve", "--device", "test", "--listen", "127.0.0.1:0", "--rtsp", "\(served.port)"],
                                                     environment: ["CAMCTL_LIBRARY": camctl.library.url.path])
        #expect(result.status == 69)
        #expect(result.standardError.hasPrefix("camctl: the RTSP server cannot listen on 127.0.0.1:\(served.port)")
                && result.standardError.hasSuffix("; choose another port with --rtsp\n"), "\(result.standardError)")
    }

    @Test("Without x264enc, --rtsp names the plugin package to install, exit 69, before the camera starts")
    func encoderMissing() async throws {
        let plugins = try TemporaryFolder()
        let system = "/usr/lib/x86_64-linux-gnu/gstreamer-1.0"
        for name in try FileManager.default.contentsOfDirectory(atPath: system) where name.hasSuffix(".so") && name != "libgstx264.so" {
            try FileManager.default.createSymbolicLink(atPath: plugins.path(name), withDestinationPath: system + "/" + name)
        }
        let camctl = try Camctl()
        let result = try await ChildProcess.run(ChildProcess.buildFolder.appendingPathComponent("camctl").path,
                                                     ["serve", "--device", "test", "--listen", "127.0.0.1:0", "--rtsp", "0"],
                                                     environment: ["CAMCTL_LIBRARY": camctl.library.url.path, "GST_PLUGIN_SYSTEM_PATH_1_0": plugins.url.path,
                                                                   "GST_REGISTRY": plugins.path("registry.bin")])
        #expect(result.status == 69)
        #expect(result.standardError == "camctl: --rtsp needs GStreamer's x264enc; install gstreamer1.0-plugins-ugly\n", "\(result.standardError)")
    }
}
