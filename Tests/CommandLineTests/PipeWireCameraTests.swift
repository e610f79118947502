import Foundation
import TestSupport
import Testing

@Suite("Cameras shared through PipeWire", .startsPrograms,
       .enabled(if: PipeWireCamera.isAvailable, "needs pipewire, wireplumber and gstreamer1.0-pipewire"))
struct PipeWireCameraTests {
    @Test("A PipeWire camera is found by name and read through pipewiresrc")
    func captureFromPipeWire() async throws {
        let folder = try TemporaryFolder()
        let output = folder.path("photo.jpg")
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let result = try await PipeWireCamera.run(camctl, ["capture", "--device", "pipewire test", "--resolution", "640x480",
                                                     "--output", output, "--print-pipeline"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("pipewiresrc target-object="), "the camera is read through PipeWire")
        let exif = try await ChildProcess.run("exiftool", ["-s3", "-ImageSize", "-Model", output])
        #expect(exif.standardOutput == "640x480\n\(PipeWireCamera.name)\n")
    }

    @Test("A PipeWire camera, whose frames come undated, records a movie of the asked length with every frame dated")
    func recordFromPipeWire() async throws {
        let folder = try TemporaryFolder()
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let result = try await PipeWireCamera.run(camctl, ["record", "--device", "pipewire test", "--resolution", "640x480", "--duration", "2",
                                                     "--library", folder.path("library"), "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let movie = try #require(Camctl.objects(result.standardOutput).first { $0["kind"] as? String == "movie" }, "\(result.standardOutput)")
        // PipeWire's frames come as it sends them, not on a fixed grid, and how many depends on
        // the machine's load: what is proven is that the recording ended at its length, that every
        // frame it took is in the file, dated in order from the first, and that none begins at or
        // after 2 s (the frame that reaches the length ends the movie and is not taken).
        #expect(movie["ended"] as? String == "duration", "\(movie)")
        let times = try await RecordCommandTests.frameTimes(try #require(movie["path"] as? String))
        #expect(times.count == movie["frames"] as? Int, "\(times.count) frames in the file, \(movie["frames"] ?? 0) recorded")
        // Strictly in order: frames that arrive together (a busy machine hands on a backlog) are
        // still a tick of the movie's clock apart in the file.
        #expect(times.first == 0 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        #expect((times.last ?? 2) < 2, "the last frame at \(times.last ?? 0) s")
    }

    @Test("A PipeWire microphone is listed and recorded: its tone as AAC beside the frames, the length of the movie; the default size fits the camera")
    func recordPipeWireMicrophone() async throws {
        let folder = try TemporaryFolder()
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let listed = try await PipeWireCamera.run(camctl, ["devices", "--microphones"], microphone: true)
        #expect(listed.standardOutput.contains(PipeWireCamera.microphoneName), "\(listed.standardOutput)")
        // No --resolution: the default preset (1080p30) takes this 640x480 camera's best.
        let result = try await PipeWireCamera.run(camctl, ["record", "--device", "pipewire test", "--audio", PipeWireCamera.microphoneName,
                                                     "--duration", "3", "--library", folder.path("library"), "--json"], microphone: true)
        #expect(result.status == 0, "\(result.standardError)")
        let movie = try #require(Camctl.objects(result.standardOutput).first { $0["kind"] as? String == "movie" }, "\(result.standardOutput)")
        #expect(movie["audio_codec"] as? String == "aac" && movie["width"] as? Int == 640 && movie["height"] as? Int == 480, "\(movie)")
        let path = try #require(movie["path"] as? String)
        let streams = try await ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name,sample_rate,duration",
                                                       "-of", "csv=p=0", path])
        let audio = try #require(streams.standardOutput.split(separator: "\n").first { $0.contains("audio") }, "\(streams.standardOutput)")
        let fields = audio.split(separator: ",")
        #expect(fields.first == "aac" && fields.contains("48000"), "\(audio)")
        // The sound runs with the frames, from the first to the last (the movie's duration within a tenth).
        let seconds = Double(fields.last ?? "") ?? 0
        #expect(abs(seconds - (movie["duration"] as? Double ?? 0)) < 0.1, "\(audio) against \(movie["duration"] ?? 0)")
        // It is the tone, not silence: ffmpeg's mean volume of a 440 Hz sine at full scale is about -3 dB.
        let volume = try await ChildProcess.run("ffmpeg", ["-i", path, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"])
        let mean = volume.standardError.split(separator: "\n").first { $0.contains("mean_volume") }
        let decibels = mean.flatMap { Double($0.split(separator: " ").dropLast().last ?? "") } ?? -91
        #expect(decibels > -40, "\(mean ?? "no mean volume")")
    }

    @Test("--device front picks the camera that reports itself in front; back, which none reports, says so and lists them")
    func frontAndBack() async throws {
        let folder = try TemporaryFolder()
        let output = folder.path("front.jpg")
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let front = try await PipeWireCamera.run(camctl, ["capture", "--device", "front", "--resolution", "640x480", "--no-library",
                                                    "--output", output], location: "front")
        #expect(front.status == 0, "\(front.standardError)")
        #expect(try await ChildProcess.run("exiftool", ["-s3", "-Model", output]).standardOutput == "\(PipeWireCamera.name)\n")
        let back = try await PipeWireCamera.run(camctl, ["capture", "--device", "back", "--no-library", "--output", output], location: "front")
        #expect(back.status == 69, "\(back.standardError)")
        #expect(back.standardError.contains("no camera reports its position as back"), "\(back.standardError)")
        #expect(back.standardError.contains("\(PipeWireCamera.name)") && back.standardError.contains(", front"), "\(back.standardError)")
        let devices = try await PipeWireCamera.run(camctl, ["devices"], location: "front")
        #expect(devices.standardOutput.contains("front"), "\(devices.standardOutput)")
    }

    @Test("Switching back and forth between two cameras other programs publish through PipeWire: after every switch the camera gives frames, the switch done, or undone and said")
    func switchBackAndForth() async throws {
        // A camera another program published gives no frame to a second reader once a third
        // camera was read (as gst-launch-1.0 alone shows here): the switch to it is undone.
        let rounds = try await Self.switches(4, between: [PipeWireCamera.name, PipeWireCamera.secondName], resolution: "640x480", secondCamera: true)
        #expect(rounds.count == 4, "\(rounds)")
        for round in rounds {
            #expect(round.contains("flowing=yes"), "\(round)")
            // Switched, or refused in one sentence saying the session is back on the other camera.
            #expect(round.contains(#""outcome":"switched""#) || round.contains("the session is back on"), "\(round)")
        }
    }

    @Test("Forty switches back and forth between two cameras the PipeWire daemon hosts, as it hosts webcams: every one done, and frames after it")
    func manySwitches() async throws {
        // Forty: the daemon's own test camera (PipeWire 0.3.65) stops serving a reader after some
        // sixty to ninety openings, with gst-launch-1.0 alone as with camctl.
        let rounds = try await Self.switches(40, between: PipeWireCamera.daemonCameraNames, resolution: "320x240", daemonCameras: true)
        #expect(rounds.count == 40, "\(rounds)")
        for round in rounds {
            #expect(round.contains("flowing=yes") && round.contains(#""outcome":"switched""#), "\(round)")
        }
    }

    /// Serves on the first of `cameras` in the daemon's world, then switches to the other and back
    /// `count` times over the API: each switch's answer, and whether the camera gave frames after
    /// it (`camera_frames` growing), as a line `round N flowing=yes|no ANSWER`.
    static func switches(_ count: Int, between cameras: [String], resolution: String,
                         secondCamera: Bool = false, daemonCameras: Bool = false) async throws -> [Substring] {
        let camctl = ChildProcess.buildFolder.appendingPathComponent("camctl").path
        let script = """
            "$0" serve --device "\(cameras[0])" --resolution \(resolution) --listen 127.0.0.1:0 --json > "$XDG_RUNTIME_DIR/serve.out" 2>"$XDG_RUNTIME_DIR/serve.err" &
            serve=$!
            for i in $(seq 600); do grep -q '"serving"' "$XDG_RUNTIME_DIR/serve.out" 2>/dev/null && break; sleep 0.1; done
            port=$(sed -n 's/.*"port":\\([0-9]*\\).*/\\1/p' "$XDG_RUNTIME_DIR/serve.out" | head -1)
            token=$(cat "$CAMCTL_LIBRARY/serve-token")
            frames() { curl -s "http://127.0.0.1:$port/api/status" | sed -n 's/.*"camera_frames":\\([0-9]*\\).*/\\1/p'; }
            for round in $(seq \(count)); do
                if [ $((round % 2)) = 1 ]; then to="\(cameras[1])"; else to="\(cameras[0])"; fi
                answer=$(curl -s -m 120 -X POST -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \\
                    -d "{\\"action\\": \\"switch_camera\\", \\"device\\": \\"$to\\"}" "http://127.0.0.1:$port/api/actions")
                before=$(frames); flowing=no
                for i in $(seq 1200); do [ "$(frames)" -gt "$before" ] 2>/dev/null && flowing=yes && break; sleep 0.1; done
                echo "round $round flowing=$flowing $answer"
            done
            kill -TERM $serve; wait $serve; echo "serve ended $?"
            """
        let result = try await PipeWireCamera.run("/bin/sh", ["-c", script, camctl], secondCamera: secondCamera, daemonCameras: daemonCameras)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("serve ended 0"), "\(result.standardOutput)")
        return result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("round ") }
    }
}
