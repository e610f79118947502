import Foundation
import Glibc
import TestSupport
import Testing

/// A DSLR through libgphoto2: the virtual camera libgphoto2's tests use, which answers as a Nikon
/// D750 on a USB port and gives back the pictures on its card; it has no live view.
@Suite("DSLR and mirrorless cameras, through libgphoto2's virtual camera", .startsPrograms,
       .enabled(if: VirtualDSLR.isAvailable, "needs libgphoto2's virtual camera (scripts/setup --tests)"))
struct DSLRTests {
    /// Puts on the camera's card a JPEG with what a camera writes in its EXIF (maker, model, the
    /// photographer), made by GStreamer and tagged by exiftool; returns its bytes.
    static func photoOnCard(of camera: VirtualDSLR) async throws -> [UInt8] {
        let path = camera.card.path("DSC_0001.JPG")
        let made = try await ChildProcess.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "pattern=ball", "!",
                                                                 "video/x-raw,width=1200,height=800", "!", "jpegenc", "!", "filesink", "location=\(path)"])
        try #require(made.status == 0, "\(made.standardError)")
        let tagged = try await ChildProcess.run("exiftool", ["-q", "-overwrite_original", "-Make=NIKON CORPORATION", "-Model=NIKON D750",
                                                             "-Artist=camctl test", path])
        try #require(tagged.status == 0, "\(tagged.standardError)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("camctl devices lists the DSLR with what it can do; gphoto2:PORT and gphoto2:MODEL pick it, and an unknown one is refused naming those there are")
    func listed() async throws {
        let camera = try VirtualDSLR()
        _ = try await Self.photoOnCard(of: camera)
        let camctl = try Camctl()
        let listed = try await camctl.run(["devices", "--json"], environment: camera.environment)
        #expect(listed.status == 0, "\(listed.standardError)")
        let record = try #require(Camctl.objects(listed.standardOutput).first { $0["id"] as? String == "gphoto2:\(VirtualDSLR.port)" },
                                  "\(listed.standardOutput)")
        #expect(record["name"] as? String == VirtualDSLR.model && record["api"] as? String == "gphoto2" && record["captures"] as? Bool == true,
                "\(record)")
        let text = try await camctl.run(["devices"], environment: camera.environment)
        #expect(text.standardOutput.contains("gphoto2:\(VirtualDSLR.port)  \(VirtualDSLR.model) (DSLR or mirrorless, through libgphoto2"),
                "\(text.standardOutput)")
        let unknown = try await camctl.run(["capture", "--device", "gphoto2:Canon EOS 5D"], environment: camera.environment)
        #expect(unknown.status == 69 && unknown.standardError.contains(#"no DSLR or mirrorless camera is called "Canon EOS 5D""#)
                && unknown.standardError.contains("gphoto2:\(VirtualDSLR.port) (\(VirtualDSLR.model))"), "\(unknown.status) \(unknown.standardError)")
        // Without libgphoto2's camera there, the cameras are listed as ever.
        let plain = try await camctl.run(["devices"])
        #expect(plain.status == 0 && !plain.standardOutput.contains("gphoto2:"), "\(plain.standardOutput)")
    }

    @Test("capture fires the camera and keeps its file byte for byte, EXIF as the camera wrote it, with a thumbnail, by port and by model",
          arguments: ["gphoto2:\(VirtualDSLR.port)", "gphoto2:nikon"])
    func captured(device: String) async throws {
        let camera = try VirtualDSLR()
        let onCard = try await Self.photoOnCard(of: camera)
        let camctl = try Camctl()
        let captured = try await camctl.run(["capture", "--device", device, "--json"], environment: camera.environment)
        #expect(captured.status == 0, "\(captured.standardError)")
        let record = try #require(Camctl.records(captured.standardOutput).first, "\(captured.standardOutput)")
        let path = try #require(record["path"] as? String)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == onCard, "the camera's file, byte for byte")
        #expect(record["width"] as? Int == 1200 && record["height"] as? Int == 800 && record["device"] as? String == VirtualDSLR.model, "\(record)")
        let tags = try await ChildProcess.run("exiftool", ["-s3", "-Make", "-Model", "-Artist", path])
        #expect(tags.standardOutput.split(separator: "\n") == ["NIKON CORPORATION", "NIKON D750", "camctl test"], "\(tags.standardOutput)")
        let listed = try await camctl.photos()
        let thumbnail = try #require(listed.first?["thumbnail_path"] as? String, "\(listed)")
        #expect(FileManager.default.fileExists(atPath: thumbnail), "a thumbnail of camctl's own")
    }

    @Test("A camera without live view says so once, and the preview shows a picture all the same")
    func noLiveView() async throws {
        let camera = try VirtualDSLR()
        _ = try await Self.photoOnCard(of: camera)
        let camctl = try Camctl()
        let preview = try camctl.start(["preview", "--device", "gphoto2:\(VirtualDSLR.port)", "--sink", "fakesink", "--json"],
                                       environment: camera.environment)
        #expect(await preview.output(containing: #""event":"no_live_view""#), "\(preview.outputSoFar) \(preview.errorsSoFar)")
        #expect(await preview.handling(SIGINT))
        preview.send(SIGINT)
        let ended = await preview.finished()
        #expect(ended.standardOutput.components(separatedBy: "no_live_view").count == 2, "said once: \(ended.standardOutput)")
        #expect(ended.standardOutput.contains("has no live view; the preview shows its last photo"), "\(ended.standardOutput)")
    }

    @Test("A booth on the DSLR: each shot taken by the camera, kept as it wrote it, and composed")
    func booth() async throws {
        let camera = try VirtualDSLR()
        let onCard = try await Self.photoOnCard(of: camera)
        let camctl = try Camctl()
        let booth = try await camctl.run(["booth", "--device", "gphoto2:\(VirtualDSLR.port)", "--shots", "2", "--layout", "1x4", "--countdown", "0",
                                          "--show-shots", "0", "--show-result", "0", "--sink", "fakesink", "--json"], environment: camera.environment)
        #expect(booth.status == 0, "\(booth.standardError)")
        let records = Camctl.records(booth.standardOutput)
        let shots = records.filter { $0["composed"] as? Bool != true }.compactMap { $0["path"] as? String }
        #expect(shots.count == 2 && records.contains { $0["composed"] as? Bool == true }, "\(records)")
        for shot in shots { #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: shot))) == onCard, "\(shot) is the camera's file") }
    }

    @Test("camera-settings lists the camera's settings, sets one to another of its choices (read back so), and refuses a value it does not offer, naming those it does")
    func settings() async throws {
        let camera = try VirtualDSLR()
        _ = try await Self.photoOnCard(of: camera)
        let camctl = try Camctl()
        let device = "gphoto2:\(VirtualDSLR.port)"
        let listed = try await camctl.run(["camera-settings", "--device", device, "--json"], environment: camera.environment)
        #expect(listed.status == 0, "\(listed.standardError)")
        let settings = Camctl.objects(listed.standardOutput)
        let choice = try #require(settings.first { ($0["choices"] as? [String])?.count ?? 0 >= 2 && $0["read_only"] as? Bool == false },
                                  "a setting with choices: \(settings.map { $0["name"] ?? "" })")
        let name = try #require(choice["name"] as? String), now = try #require(choice["value"] as? String)
        let other = try #require((choice["choices"] as? [String])?.first { $0 != now })
        let set = try await camctl.run(["camera-settings", "--device", device, "--json", "\(name)=\(other)"], environment: camera.environment)
        #expect(set.status == 0 && Camctl.objects(set.standardOutput).first?["value"] as? String == other, "\(set.standardOutput) \(set.standardError)")
        let read = try await camctl.run(["camera-settings", "--device", device, name], environment: camera.environment)
        #expect(read.status == 0 && read.standardOutput.hasPrefix("\(name) = \(other)  ("), "\(read.standardOutput)")
        let refused = try await camctl.run(["camera-settings", "--device", device, "\(name)=no such value"], environment: camera.environment)
        #expect(refused.status != 0 && refused.standardError.contains(#""no such value" is not one of its values: "#)
                && refused.standardError.contains(other), "\(refused.status) \(refused.standardError)")
        let unknown = try await camctl.run(["camera-settings", "--device", device, "nosuchsetting"], environment: camera.environment)
        #expect(unknown.status != 0 && unknown.standardError.contains("the camera has no setting nosuchsetting"), "\(unknown.standardError)")
    }

    @Test("serve on the DSLR: /api/capture keeps the camera's file, /api/camera-settings reads and sets its settings; a description file sets a setting (a value the camera lacks refused) and takes its photos too")
    func served() async throws {
        let camera = try VirtualDSLR()
        let onCard = try await Self.photoOnCard(of: camera)
        let served = try await ServedCamera(extra: ["--device", "gphoto2:\(VirtualDSLR.port)"], environment: camera.environment)
        defer { served.process.send(SIGTERM) }
        let taken = try await served.json("/api/capture", ["-X", "POST"])
        let path = try #require((taken.object["photos"] as? [[String: Any]])?.first?["path"] as? String, "\(taken)")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == onCard, "the camera's file, byte for byte")
        let listed = try await served.request("/api/camera-settings")
        let settings = try #require((try? JSONSerialization.jsonObject(with: Data(listed.bytes))) as? [[String: Any]], "\(listed.body)")
        let choice = try #require(settings.first { ($0["choices"] as? [String])?.count ?? 0 >= 2 && $0["read_only"] as? Bool == false }, "\(settings)")
        let name = try #require(choice["name"] as? String), now = try #require(choice["value"] as? String)
        let other = try #require((choice["choices"] as? [String])?.first { $0 != now })
        let body = String(decoding: try JSONSerialization.data(withJSONObject: [name: other]), as: UTF8.self)
        let set = try await served.request("/api/camera-settings", ["-X", "PUT", "-d", body])
        #expect(set.status == 200 && set.body.contains(#""value":"\#(other)""#), "\(set.body)")
        let wrong = String(decoding: try JSONSerialization.data(withJSONObject: [name: "no such value"]), as: UTF8.self)
        let refused = try await served.request("/api/camera-settings", ["-X", "PUT", "-d", wrong])
        #expect(refused.status == 400 && refused.body.contains("is not one of its values"), "\(refused.status) \(refused.body)")
        #expect(await served.stop().status == 0)

        let folder = try TemporaryFolder()
        let script = folder.path("dslr.camctl")
        try "camera gphoto2:\(VirtualDSLR.port)\npreview none\nset \(name) \"\(other)\"\ncapture\n".write(toFile: script, atomically: true, encoding: .utf8)
        let ran = try await served.camctl.run(["run", script, "--json"], environment: camera.environment)
        #expect(ran.status == 0, "\(ran.standardError)")
        let photo = try #require(Camctl.records(ran.standardOutput).first?["path"] as? String, "\(ran.standardOutput)")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: photo))) == onCard, "the description file's photo is the camera's file")
        // A value the camera does not offer ends the run before its photo, naming those it does.
        try "camera gphoto2:\(VirtualDSLR.port)\npreview none\nset \(name) \"no such value\"\ncapture\n".write(toFile: script, atomically: true, encoding: .utf8)
        let wrongRun = try await served.camctl.run(["run", script, "--json"], environment: camera.environment)
        #expect(wrongRun.status != 0 && wrongRun.standardError.contains(#""no such value" is not one of its values: "#)
                && wrongRun.standardError.contains(other) && Camctl.records(wrongRun.standardOutput).isEmpty, "\(wrongRun.status) \(wrongRun.standardError)")
    }

    @Test("Headless Chromium: the page's camera settings show the DSLR's own and set one to another of its values; behind the owner's PIN, a change without it is refused",
          .enabled(if: PageTests.hasBrowser, "needs chromium, chromium-driver and python3-selenium"), .drivesBrowser)
    func page() async throws {
        let camera = try VirtualDSLR()
        _ = try await Self.photoOnCard(of: camera)
        let folder = try TemporaryFolder()
        let pin = try folder.file("pin", holding: "2468\n")
        let served = try await ServedCamera(extra: ["--device", "gphoto2:\(VirtualDSLR.port)", "--settings-pin-file", pin], environment: camera.environment)
        defer { served.process.send(SIGTERM) }
        let listed = try await served.request("/api/camera-settings")
        let settings = try #require((try? JSONSerialization.jsonObject(with: Data(listed.bytes))) as? [[String: Any]], "\(listed.body)")
        let choice = try #require(settings.first { $0["kind"] as? String == "choice" && ($0["choices"] as? [String])?.count ?? 0 >= 2
                                                   && $0["read_only"] as? Bool == false }, "\(settings)")
        let name = try #require(choice["name"] as? String), now = try #require(choice["value"] as? String)
        let other = try #require((choice["choices"] as? [String])?.first { $0 != now })
        // As the page sends a change: its cookie, and no PIN typed.
        let body = String(decoding: try JSONSerialization.data(withJSONObject: [name: other]), as: UTF8.self)
        let withoutPIN = try await served.request("/api/camera-settings", ["-X", "PUT", "-H", "Cookie: camctl_token=\(served.token)", "-d", body],
                                                  withToken: false)
        #expect(withoutPIN.status == 403 && withoutPIN.body.contains("need its PIN"), "\(withoutPIN.status) \(withoutPIN.body)")
        #expect(await served.stop().status == 0)

        let open = try await ServedCamera(camctl: served.camctl, extra: ["--device", "gphoto2:\(VirtualDSLR.port)"], environment: camera.environment)
        defer { open.process.send(SIGTERM) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Browser/camera_settings.py").path
        let run = try await ChildProcess.run("/usr/bin/python3", [script, open.base, name, other])
        let seen = try #require((try? JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))) as? [String: Any],
                                "\(run.standardOutput) \(run.standardError.suffix(2000))")
        #expect((seen["offered"] as? [String])?.contains(name) == true, "\(seen)")
        #expect((seen["message"] as? String)?.hasSuffix(" is now \(other).") == true && seen["shown"] as? String == other, "\(seen)")
        let after = try await open.request("/api/camera-settings")
        let read = (try? JSONSerialization.jsonObject(with: Data(after.bytes))) as? [[String: Any]]
        #expect(read?.first { $0["name"] as? String == name }?["value"] as? String == other, "the camera says it so")
        #expect(await open.stop().status == 0)
    }

    @Test("A fleet node on a DSLR: a synchronized capture fires the camera at the instant asked, and the node keeps the camera's file",
          .enabled(if: Broker.isAvailable, "needs mosquitto and mosquitto-clients"))
    func fleetNode() async throws {
        let camera = try VirtualDSLR()
        let onCard = try await Self.photoOnCard(of: camera)
        let broker = try await Broker()
        let node = try await ServedCamera(extra: ["--device", "gphoto2:\(VirtualDSLR.port)", "--broker", "mqtt://127.0.0.1:\(broker.port)",
                                                  "--fleet", "studio", "--node", "dslr"], environment: camera.environment)
        defer { node.process.send(SIGTERM) }
        try #require(await until { (try? await broker.next(on: "camctl/studio/dslr/status", within: 1))?.contains("online") == true })
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let captured = try await ChildProcess.run(camctl, ["fleet", "capture", "--broker", "mqtt://127.0.0.1:\(broker.port)", "--fleet", "studio",
                                                           "--at", "2", "--json"])
        #expect(captured.status == 0, "\(captured.standardError)")
        // Fired at the instant two seconds ahead, not at the command's arrival.
        let offsets = Camctl.objects(captured.standardOutput).compactMap { $0["offset_ms"] as? Double }
        #expect(offsets.count == 1 && offsets.allSatisfy { abs($0) < 1000 }, "\(captured.standardOutput)")
        let kept = try await node.camctl.photos()
        let path = try #require(kept.first?["path"] as? String, "\(kept)")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == onCard, "the camera's file, byte for byte")
        #expect(await node.stop().status == 0)
    }
}
