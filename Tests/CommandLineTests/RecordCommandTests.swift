import Foundation
import Glibc
import TestSupport
import Testing

/// One recording at a time: each keeps an x264 encoder busy, and a full run has timing tests beside it.
@Suite("camctl record: movies in the library", .startsPrograms, .serialized)
struct RecordCommandTests {
    /// What ffprobe reads of a movie's video stream, every frame counted.
    static func probe(_ path: String) async throws -> [String: String] {
        let result = try await ChildProcess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                      "stream=codec_name,width,height,r_frame_rate,nb_read_frames:format=duration",
                                                      "-of", "default=noprint_wrappers=1", path])
        #expect(result.status == 0, "\(result.standardError)")
        return Dictionary(result.standardOutput.split(separator: "\n").compactMap { line in
            line.firstIndex(of: "=").map { (String(line[..<$0]), String(line[line.index(after: $0)...])) }
        }, uniquingKeysWith: { $1 })
    }

    /// The presentation times of a movie's video frames, in seconds, in order.
    static func frameTimes(_ path: String) async throws -> [Double] {
        let result = try await ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time",
                                                      "-of", "csv=p=0", path])
        return result.standardOutput.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.sorted()
    }

    // At 720p: beside a full run's other tests a 2-core machine cannot encode 1080p30 in real time
    // (on CI it kept 32 of 90 frames); `scripts/bench --only movie` records 1080p30 alone.
    @Test("record --duration 3 at 720p30: H.264 of that size and rate, 3 s within a frame, every frame, a thumbnail")
    func recordsForDuration() async throws {
        let camctl = try Camctl()
        let result = try await camctl("record", "--device", "test", "--resolution", "1280x720@30", "--duration", "3", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let movie = try #require(Camctl.objects(result.standardOutput).first { $0["kind"] as? String == "movie" }, "\(result.standardOutput)")
        let path = try #require(movie["path"] as? String)
        let probed = try await Self.probe(path)
        #expect(probed["codec_name"] == "h264" && probed["width"] == "1280" && probed["height"] == "720" && probed["r_frame_rate"] == "30/1",
                "\(probed)")
        let frames = try #require(movie["frames"] as? Int), lost = try #require(movie["lost_frames"] as? Int)
        #expect(probed["nb_read_frames"] == String(frames), "\(probed) \(movie)")
        if lost == 0 {
            #expect(abs((Double(probed["duration"] ?? "") ?? 0) - 3) <= 1.0 / 30 + 1e-6, "\(probed)")
            #expect(frames == 90, "\(probed) \(movie)")
        } else {
            // A machine too busy to encode every frame (a loaded full run on two cores): the movie
            // still ends by 3 s, and camctl tells how many frames it lacks, truly.
            #expect((Double(probed["duration"] ?? "") ?? 0) <= 3 + 1e-6, "\(probed)")
            #expect((90...91).contains(frames + lost), "\(frames) frames, \(lost) lost")
            #expect(result.standardError.contains("the movie lacks \(lost) of the camera's frames (it has \(frames))"), "\(result.standardError)")
        }
        let discovered = try await ChildProcess.run("gst-discoverer-1.0", [path])
        #expect(discovered.status == 0 && discovered.standardOutput.contains("H.264"), "\(discovered.standardOutput)")
        // The library lists it as a movie with its length and a thumbnail of its first frame.
        let listed = try #require(await camctl.photos().first)
        #expect(listed["kind"] as? String == "movie" && listed["codec"] as? String == "h264" && listed["path"] as? String == path)
        #expect(abs((listed["duration"] as? Double ?? 0) - (Double(probed["duration"] ?? "") ?? 0)) < 0.05, "\(listed)")
        let thumbnail = try #require(listed["thumbnail_path"] as? String)
        let size = try await ChildProcess.run("gst-discoverer-1.0", [thumbnail])
        #expect(size.standardOutput.contains("Width: 320") && size.standardOutput.contains("Height: 180"), "\(size.standardOutput)")
    }

    @Test("A photo taken during a recording is kept, and the movie's frames follow each other without a gap")
    func photoWhileRecording() async throws {
        let camctl = try Camctl()
        let run = try camctl.start(["record", "--device", "test", "--resolution", "640x480@30", "--duration", "4", "--json"])
        #expect(await run.output(containing: "\"event\":\"recording\""), "\(run.outputSoFar)")
        run.send(SIGUSR1)  // while it records
        let result = await run.finished(timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        let objects = Camctl.objects(result.standardOutput)
        let photo = try #require(objects.first { ($0["path"] as? String)?.hasSuffix(".jpg") == true }, "\(result.standardOutput)")
        #expect(photo["width"] as? Int == 640)
        let movie = try #require(objects.first { $0["kind"] as? String == "movie" })
        let times = try await Self.frameTimes(try #require(movie["path"] as? String))
        let lost = try #require(movie["lost_frames"] as? Int)
        Self.expectGapsAreLost(times, lost: lost)
        #expect((120...121).contains(times.count + lost), "\(times.count) frames, \(lost) lost")
        #expect(try await camctl.photos().count == 2)
    }

    @Test("--no-photos: the session holds no frame for photos, SIGUSR1 is answered that photos are off, and the movie keeps its thumbnail")
    func recordWithoutPhotos() async throws {
        let camctl = try Camctl()
        let run = try camctl.start(["record", "--device", "test", "--resolution", "320x240@30", "--json", "--no-photos", "--print-pipeline"])
        #expect(await run.output(containing: "\"event\":\"recording\""), "\(run.outputSoFar)")
        run.send(SIGUSR1)
        #expect(await run.errors(containing: "camctl: no photo: photos are off (--no-photos)"), "\(run.errorsSoFar)")
        run.send(SIGUSR2)  // the recording goes on after the refusal, until it is stopped
        let result = await run.finished(timeout: 60)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("tee name=split"), "\(result.standardError)")
        #expect(!result.standardError.contains("stills"), "\(result.standardError)")
        let listed = try await camctl.photos()
        #expect(listed.count == 1 && listed.first?["kind"] as? String == "movie", "\(listed)")
        let thumbnail = try #require(listed.first?["thumbnail_path"] as? String)
        #expect(FileManager.default.fileExists(atPath: thumbnail))
    }

    @Test("m pauses and resumes: the paused span leaves the movie, whose frames follow each other without a gap")
    func pauseAndResume() async throws {
        let camctl = try Camctl()
        let result = try await camctl.inTerminal(["record", "--device", "test", "--resolution", "640x480@30", "--json"],
                                                 keys: [("recording into", 2, "m"), ("recording paused", 2, "m"), ("recording resumed", 1.5, "q")])
        #expect(result.standardOutput.contains("recording paused") && result.standardOutput.contains("recording resumed"))
        let movie = try Self.movie(in: result)
        // The 2 s paused left in would be 60 frames missing that no count of lost frames explains.
        let times = try await Self.frameTimes(try #require(movie["path"] as? String))
        #expect(times.count == movie["frames"] as? Int && times.count > 0)
        Self.expectGapsAreLost(times, lost: try #require(movie["lost_frames"] as? Int))
    }

    /// A movie's frames stay on the camera's 30 fps grid, and the frames missing between them are
    /// the frames counted lost (a machine too busy to encode every frame): a span left in the
    /// movie without frames, such as a pause that was not cut out, would be missing and not lost.
    static func expectGapsAreLost(_ times: [Double], lost: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let intervals = zip(times.dropFirst(), times).map { ($0 - $1) * 30 }
        #expect(intervals.allSatisfy { $0 > 0.94 && abs($0 - $0.rounded()) < 0.06 }, "steps in frames: \(intervals)",
                sourceLocation: sourceLocation)
        let missing = intervals.reduce(0) { $0 + Int($1.rounded()) - 1 }
        #expect((lost - 2...lost).contains(missing), "\(missing) frames missing, \(lost) lost", sourceLocation: sourceLocation)
    }

    /// The movie a terminal's run printed (`--json`), from the terminal's output.
    static func movie(in terminal: ChildProcess.Result) throws -> [String: Any] {
        // A line may begin with the terminal's control sequences (a progress line cleared).
        let lines = terminal.standardOutput.split(whereSeparator: \.isNewline).map { $0.drop { $0 != "{" } }
        return try #require(Camctl.objects(lines.joined(separator: "\n")).first { $0["kind"] as? String == "movie" }, "\(terminal.standardOutput)")
    }

    /// What ffprobe reads of each of a movie's streams, by type (`video`, `audio`).
    static func streams(_ path: String) async throws -> [String: [String: String]] {
        let result = try await ChildProcess.run("ffprobe", ["-v", "error", "-show_entries",
                                                      "stream=codec_type,codec_name,sample_rate,channels,start_time,duration",
                                                      "-of", "compact=p=0", path])
        #expect(result.status == 0, "\(result.standardError)")
        let streams = result.standardOutput.split(separator: "\n").map { line in
            Dictionary(line.split(separator: "|").compactMap { field -> (String, String)? in
                let parts = field.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }, uniquingKeysWith: { $1 })
        }
        return Dictionary(streams.compactMap { stream in stream["codec_type"].map { ($0, stream) } }, uniquingKeysWith: { $1 })
    }

    @Test("--audio test: AAC sound at 48 kHz beside the frames, from their first to their last; a pause leaves out both alike")
    func soundWithTheFrames() async throws {
        let camctl = try Camctl()
        let result = try await camctl.inTerminal(["record", "--device", "test", "--resolution", "640x480@30", "--audio", "test", "--json"],
                                                 keys: [("recording into", 2, "m"), ("recording paused", 2, "m"), ("recording resumed", 1.5, "q")])
        let movie = try Self.movie(in: result)
        let streams = try await Self.streams(try #require(movie["path"] as? String))
        let video = try #require(streams["video"], "\(streams)"), audio = try #require(streams["audio"], "\(streams)")
        #expect(audio["codec_name"] == "aac" && audio["sample_rate"] == "48000" && audio["channels"] == "2", "\(audio)")
        let (videoLength, soundLength) = (Double(video["duration"] ?? "") ?? 0, Double(audio["duration"] ?? "") ?? 0)
        // The frames leave the paused 2 s out (proven by the pause test); the sound, which runs with them, leaves them out too.
        // Sound starts with the first frame and ends with the last, within an AAC frame (21 ms) and a video frame.
        #expect(abs(soundLength - videoLength) < 0.06, "sound \(soundLength) s, frames \(videoLength) s")
        #expect((Double(audio["start_time"] ?? "") ?? 1) < 0.03, "\(audio)")
        #expect(result.standardOutput.contains("recording paused"))
    }

    @Test("--audio naming no microphone here: 69 and one sentence, before anything is recorded; none records silence")
    func missingMicrophone() async throws {
        let camctl = try Camctl()
        let missing = try await camctl("record", "--device", "test", "--duration", "1", "--audio", "no such microphone")
        #expect(missing.status == 69 && missing.standardError.contains("no microphone named \"no such microphone\""), "\(missing.standardError)")
        #expect(missing.standardError.split(separator: "\n").count == 1, "\(missing.standardError)")
        // Told in the command line's words: its option, where this machine has no microphone at all.
        #expect(missing.standardError.contains("the microphones are") || missing.standardError.contains("record with --audio none"),
                "\(missing.standardError)")
        let recordings = camctl.library.url.appendingPathComponent("recordings").path
        #expect((try? FileManager.default.contentsOfDirectory(atPath: recordings))?.isEmpty ?? true, "nothing left in recordings/")
        let silent = try await camctl("record", "--device", "test", "--resolution", "320x240@30", "--duration", "1", "--audio", "none", "--json")
        #expect(silent.status == 0, "\(silent.standardError)")
        let movie = try #require(Camctl.objects(silent.standardOutput).first { $0["kind"] as? String == "movie" })
        #expect(try await Self.streams(try #require(movie["path"] as? String))["audio"] == nil)
        #expect(movie["audio_codec"] is NSNull, "\(movie)")
    }

    @Test("r in the preview starts and stops a movie, kept in the library with its path printed")
    func recordFromPreview() async throws {
        let camctl = try Camctl()
        let result = try await camctl.inTerminal(["preview", "--device", "test", "--resolution", "640x480@30", "--sink", "fakesink"],
                                                 keys: [("previewing", 0, "r"), ("recording into", 2, "r"), (" frames, ", 0, "q")])
        let movie = try #require(try await camctl.photos().first, "\(result.standardOutput)")
        #expect(movie["kind"] as? String == "movie")
        #expect(result.standardOutput.contains(try #require(movie["path"] as? String)), "\(result.standardOutput)")
        #expect((movie["duration"] as? Double ?? 0) > 1, "\(movie)")
    }

    @Test("SIGKILL during a recording: the next opening keeps every frame of the file's whole fragments, each in its place")
    func killedWhileRecording() async throws {
        let camctl = try Camctl()
        let run = try camctl.start(["record", "--device", "test", "--resolution", "1280x720@30", "--duration", "600", "--json"])
        #expect(await run.output(containing: "\"event\":\"recording\""), "\(run.outputSoFar)")
        // Killed once two seconds of frames are in the file's whole fragments, as ffprobe reads it.
        let recordings = camctl.library.path("recordings")
        func written() async -> Int {
            guard let name = (try? FileManager.default.contentsOfDirectory(atPath: recordings))?.first(where: { $0.hasSuffix(".mp4") }) else { return 0 }
            return (try? await Self.frameTimes(recordings + "/" + name).count) ?? 0
        }
        #expect(await until { await written() >= 60 }, "two seconds of frames reach the file")
        let onDisk = await written()
        run.send(SIGKILL)
        _ = await run.finished(timeout: 30)
        let left = try FileManager.default.contentsOfDirectory(atPath: recordings)
        #expect(Set(left.map { URL(fileURLWithPath: $0).pathExtension }) == ["mp4", "reserve"], "\(left)")
        let reconciled = try await ChildProcess.run(ChildProcess.buildFolder.appendingPathComponent("camctl").path, ["library", "process"],
                                                         environment: ["CAMCTL_LIBRARY": camctl.library.url.path])  // the next command that writes the library keeps the movie
        #expect(reconciled.status == 0 && reconciled.standardError.contains("movie"), "\(reconciled.standardError)")
        let movie = try #require(try await camctl.photos().first)
        #expect(movie["kind"] as? String == "movie")
        let path = try #require(movie["path"] as? String)
        let probed = try await Self.probe(path)
        let duration = Double(probed["duration"] ?? "") ?? 0
        // Every frame of the whole fragments the file held at the kill is kept, each in its place
        // on the camera's 30 fps grid, in order: at most the fragment being written (a second,
        // 30 frames) is lost. (A loaded machine's encoder may have let frames go before: their
        // places stay empty, and the movie's length still spans them.)
        let times = try await Self.frameTimes(path)
        #expect(times.count >= onDisk - 30 && times.count <= Int((duration * 30).rounded()), "\(times.count) frames kept of \(onDisk) on disk: \(probed)")
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 } && times.allSatisfy { abs($0 * 30 - ($0 * 30).rounded()) < 0.01 },
                "frames on the grid, in order: \(times)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: recordings).isEmpty)
    }

    @Test("A disk that fills while recording: 74 with one sentence, and the movie kept up to its last whole fragment",
          .enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func diskFull() async throws {
        let mount = try TemporaryMount(options: "size=4m")
        let camctl = try Camctl()
        let library = mount.path("library")
        let result = try await camctl("record", "--device", "test:snow", "--resolution", "320x240@30", "--bitrate", "8000", "--duration", "30",
                                "--library", library, "--json")
        #expect(result.status == 74, "\(result.standardError)")
        let sentences = result.standardError.split(separator: "\n")
        #expect(sentences.count == 1 && sentences[0].contains("the disk filled") && sentences[0].contains("kept"), "\(result.standardError)")
        let movie = try #require(Camctl.objects(result.standardOutput).first { $0["kind"] as? String == "movie" }, "\(result.standardOutput)")
        #expect(movie["ended"] as? String == "failed", "\(movie)")
        // Frames counted, not a rate: every place on the movie's 30 fps grid, from its first frame
        // to its last, holds a frame of the file, or one the camera made that the recording lost
        // and counted (a loaded machine's encoder lets frames go; those of the part cut off at the
        // full disk are counted too, so the places left empty are at most the frames lost).
        let frames = try #require(movie["frames"] as? Int), lost = try #require(movie["lost_frames"] as? Int)
        let places = Int(((movie["duration"] as? Double ?? 0) * 30).rounded())
        #expect(frames <= places && places - frames <= lost, "\(frames) frames in \(places) places of the grid, \(lost) counted lost")
        let path = try #require(movie["path"] as? String)
        let probed = try await Self.probe(path)
        let duration = Double(probed["duration"] ?? "") ?? 0
        #expect(duration >= 1 && duration < 30 && Int(probed["nb_read_frames"] ?? "") == frames, "the file holds the frames told: \(probed)")
        let listed = Camctl.objects(try await camctl("library", "list", "--json", "--library", library).standardOutput)
        #expect(listed.count == 1 && listed.first?["path"] as? String == path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: library + "/recordings").isEmpty)
    }

    @Test("A filter and zoom changed while recording reach the movie from that frame on, the movie keeping its size")
    func imageChangesReachTheMovie() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let file = folder.path("changes.camctl")
        try "camera test\nresolution 640x480@30\nrecord start\nwait 1.5\nfilter mono\nzoom 2\nwait 1.5\nrecord stop\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await camctl.run(["run", file, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let movie = try #require(Camctl.objects(result.standardOutput).first { $0["kind"] as? String == "movie" })
        #expect(movie["width"] as? Int == 640 && movie["height"] as? Int == 480)
        let frames = try await BoothCommandTests.frames(of: try #require(movie["path"] as? String), width: 64, height: 48)
        // How far each frame is from grey: the test pattern's colours, then none.
        let colour = frames.map(Self.colourfulness)
        let most = colour.max() ?? 0
        let grey = colour.map { $0 < most / 20 }
        let greyCount = grey.filter { $0 }.count
        #expect(grey.first == false && grey.last == true, "\(colour)")
        #expect(grey.drop { !$0 }.allSatisfy { $0 }, "once grey, every frame after is: \(colour)")
        #expect(greyCount >= 30 && grey.count - greyCount >= 30, "about half and half: \(greyCount) grey of \(grey.count)")
    }

    /// How far an RGB picture is from grey: the sum of its pixels' channel differences.
    static func colourfulness(_ frame: [UInt8]) -> Int {
        var sum = 0
        for index in stride(from: 0, to: frame.count - 2, by: 3) {
            let (red, green, blue) = (Int(frame[index]), Int(frame[index + 1]), Int(frame[index + 2]))
            sum += abs(red - green) + abs(green - blue)
        }
        return sum
    }

    @Test("--max-size ends the recording before the file passes it")
    func maximumSize() async throws {
        let camctl = try Camctl()
        let result = try await camctl("record", "--device", "test:snow", "--resolution", "320x240@30", "--bitrate", "8000", "--max-size", "3",
                                "--duration", "30", "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let movie = try #require(Camctl.objects(result.standardOutput).first { $0["kind"] as? String == "movie" })
        // Random snow takes the whole rate, about a megabyte a second: the file stops within about a second's worth of the bound.
        #expect(movie["ended"] as? String == "size" && (movie["bytes"] as? Int ?? .max) <= 3_000_000 && (movie["duration"] as? Double ?? 0) > 1,
                "\(movie)")
    }

    @Test("--output copies the kept movie to a path, whole, or to standard output; with --json it must be a path")
    func output() async throws {
        let camctl = try Camctl()
        let folder = try TemporaryFolder()
        let result = try await camctl("record", "--device", "test", "--resolution", "320x240@30", "--duration", "1", "--output", folder.path("copy.mp4"), "--json")
        #expect(result.status == 0, "\(result.standardError)")
        let movie = try #require(Camctl.objects(result.standardOutput).first { $0["kind"] as? String == "movie" })
        #expect(movie["output"] as? String == folder.path("copy.mp4"))
        let kept = try Data(contentsOf: URL(fileURLWithPath: try #require(movie["path"] as? String)))
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.path("copy.mp4"))) == kept)
        let streamed = try await camctl("record", "--device", "test", "--resolution", "320x240@30", "--duration", "1", "--output", "-")
        #expect(streamed.status == 0 && Array(streamed.standardOutputBytes.prefix(8).suffix(4)) == Array("ftyp".utf8), "\(streamed.standardError)")
        #expect(try await camctl.photos().count == 2)
        #expect(try await camctl("record", "--device", "test", "--output", "-", "--json").status == 64)
    }

    @Test("The highest-ranked H.264 encoder records: x264 here, another when it is ranked above (as a board's hardware encoder is)")
    func encoderByRank() async throws {
        let camctl = try Camctl()
        let usual = try await camctl("record", "--device", "test", "--resolution", "320x240@30", "--duration", "1", "--json")
        let x264 = try #require(Camctl.objects(usual.standardOutput).first { $0["kind"] as? String == "movie" }, "\(usual.standardError)")
        #expect(x264["encoder"] as? String == "x264enc")
        let ranked = try await camctl.run(["record", "--device", "test", "--resolution", "320x240@30", "--duration", "1", "--json"],
                                    environment: ["GST_PLUGIN_FEATURE_RANK": "openh264enc:MAX"])
        let other = try #require(Camctl.objects(ranked.standardOutput).first { $0["kind"] as? String == "movie" }, "\(ranked.standardError)")
        #expect(other["encoder"] as? String == "openh264enc")
        let path = try #require(other["path"] as? String)
        let probed = try await Self.probe(path)
        #expect(probed["codec_name"] == "h264" && probed["nb_read_frames"] == "30", "\(probed)")
        // x264 signs its streams; openh264 does not.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(bytes.range(of: Data("x264".utf8)) == nil)
        // The bit rate reaches it too, in its own unit (bits a second): an eighth of the rate, a
        // file far smaller (about 98 and 336 KB here).
        let sizes = try await [200, 1600].asyncMap { rate in
            let run = try await camctl.run(["record", "--device", "test", "--resolution", "320x240@30", "--duration", "2", "--bitrate", "\(rate)", "--json"],
                                     environment: ["GST_PLUGIN_FEATURE_RANK": "openh264enc:MAX"])
            return Camctl.objects(run.standardOutput).first { $0["kind"] as? String == "movie" }?["bytes"] as? Int
        }.compactMap { $0 }
        #expect(sizes.count == 2 && Double(sizes[0]) < Double(sizes[1]) * 0.5, "\(sizes) bytes at 200 and 1600 kbit/s")
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(x264["path"] as? String))).range(of: Data("x264".utf8)) != nil)
    }

    @Test("--no-library, --duration 0 and --max-size 0 are usage errors (64)")
    func usageErrors() async throws {
        let camctl = try Camctl()
        for arguments in [["--no-library", "--output", "/tmp/x.mp4"], ["--duration", "0"], ["--max-size", "0"]] {
            let result = try await camctl.run(["record", "--device", "test"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
        }
    }
}
