import Foundation
import JSON
import OperatorWire
import Testing
import TestSupport

/// The records every front end writes: one shape each, read back as written.
@Suite("The wire's records", .hangGuard(minutes: 3))
struct WireRecordTests {
    static let photo = PhotoRecord(path: "/lib/20261201-101502.250-k3f9x2.jpg", id: 7, width: 640, height: 480, codec: "jpeg",
                                   capturedAt: "2026-12-01T10:15:02.250Z", capturedAtMicroseconds: 1_796_120_102_250_000,
                                   device: "Test camera", deviceID: "test", bytes: 5000, orientation: 1, thumbnailPath: nil)
    static let movie = MovieRecord(path: "/lib/m.mp4", id: nil, width: 320, height: 240, codec: "h264", audioCodec: nil, duration: 2.5,
                                   frames: 75, lostFrames: 0, capturedAt: "2026-12-01T10:15:02.250Z",
                                   capturedAtMicroseconds: 1_796_120_102_250_000, device: "Test camera", deviceID: "test", bytes: 9000,
                                   thumbnailPath: nil, ended: "stopped", encoder: "x264enc", error: nil)

    static func text(_ record: some Encodable) -> String {
        String(decoding: WireJSON.bytes(record), as: UTF8.self)
    }

    @Test("Every event is read back as it was written, with its name and the vocabulary's version")
    func eventsRoundTrip() throws {
        let events: [EventRecord] = [
            .countdown(secondsLeft: 3), .shot(number: 1, of: 4), .showing(picture: "result"), .cleared,
            .reviewing(count: 2, timeout: 30), .reviewing(count: 1, timeout: nil), .kept(count: 2, answered: true),
            .discarded(count: 1, answered: false), .hookFailed(path: "/h", status: 3, signal: nil), .hookFailed(path: "/h", status: nil, signal: 9),
            .burstSkipped(frames: [3, 4]), .photo(Self.photo), .processed(photo: Self.photo), .processingFailed(id: 4, message: "no"),
            .animation(movie: Self.photo), .recording(path: "/m.mp4"), .movie(Self.photo), .movieFailed(message: "full"),
            .interrupted(message: "gone"), .resumed(message: "back"), .failed(message: "broken"), .stopped, .switched(message: "cam"),
            .cameraAdded(message: "a"), .cameraRemoved(message: "b"),
            .serving(url: "http://127.0.0.1:8080/", port: 8080, tokenRequired: false, rtspURL: nil, rtspPort: nil),
            .print(message: "hello"), .printing(printer: "ipp://p/ipp/print", job: 3), .printed(printer: "booth", job: 3),
            .printFailed(message: "the printer is stopped"), .result(id: "c1", .photos([Self.photo])), .error(id: nil, status: 400, message: "bad"),
        ]
        for event in events {
            let bytes = WireJSON.bytes(event)
            #expect(try WireJSON.decode(EventRecord.self, from: bytes) == event, "\(Self.text(event))")
            let object = try #require(try JSONValue(parsing: bytes).object)
            #expect(object["event"]?.string == event.name && object["version"]?.int == WireJSON.version, "\(Self.text(event))")
        }
    }

    @Test("Every outcome is read back as it was written")
    func outcomesRoundTrip() throws {
        let outcomes: [OutcomeRecord] = [
            .photos([Self.photo]), .countdownEnded(early: true), .resultShown(early: false), .shotsShown(early: false), .cut(ended: true),
            .held(count: 2), .kept(photos: [Self.photo], composed: Self.photo, answered: true), .kept(photos: [], composed: nil, answered: false),
            .discarded(count: 1, answered: true), .decided(answered: true), .switched(device: "cam", deviceID: "v4l2:/dev/video0"),
            .noOtherCamera, .previewPaused(true), .imageChanged(filter: "mono+vivid", zoom: 1.25), .composed(Self.photo),
            .boothTaken(photos: [Self.photo], composed: nil), .runEnded(false), .recording(path: "/m.mp4"), .recordingPaused(true),
            .movie(Self.movie), .stopped, .listing(photos: [Self.photo], more: true), .printing(printer: "booth", job: 2),
        ]
        for outcome in outcomes {
            let bytes = WireJSON.bytes(outcome)
            #expect(try WireJSON.decode(OutcomeRecord.self, from: bytes) == outcome, "\(Self.text(outcome))")
            let object = try #require(try JSONValue(parsing: bytes).object)
            #expect(object["outcome"]?.string == outcome.name && object["version"]?.int == WireJSON.version)
        }
    }

    @Test("A photo's id and thumbnail, a movie's sound and a review's time-out are written as null when there are none")
    func explicitNulls() {
        #expect(Self.text(Self.photo) == #"{"bytes":5000,"captured_at":"2026-12-01T10:15:02.250Z","captured_at_us":1796120102250000,"#
            + #""codec":"jpeg","device":"Test camera","device_id":"test","height":480,"id":7,"kind":"photo","orientation":1,"#
            + #""path":"/lib/20261201-101502.250-k3f9x2.jpg","state":"final","thumbnail_path":null,"width":640}"#)
        #expect(Self.text(Self.movie).contains(#""audio_codec":null"#) && Self.text(Self.movie).contains(#""id":null"#))
        #expect(Self.text(EventRecord.reviewing(count: 1, timeout: nil)) == #"{"count":1,"event":"reviewing","timeout":null,"version":1}"#)
    }

    @Test("A photo event and a fleet's result carry their record's fields beside the event's")
    func flattened() throws {
        let photo = try #require(try JSONValue(parsing: WireJSON.bytes(EventRecord.photo(Self.photo))).object)
        #expect(photo["event"]?.string == "photo" && photo["id"]?.int == 7 && photo["captured_at_us"]?.int == 1_796_120_102_250_000)
        let result = try #require(try JSONValue(parsing: WireJSON.bytes(EventRecord.result(id: "c1", .held(count: 2)))).object)
        #expect(result["event"]?.string == "result" && result["id"]?.string == "c1" && result["outcome"]?.string == "held" && result["count"]?.int == 2)
        let error = try #require(try JSONValue(parsing: WireJSON.bytes(EventRecord.error(id: nil, status: 413, message: "large"))).object)
        #expect(error["id"] == .null && error["error"]?.string == "large" && error["status"]?.int == 413)
    }

    @Test("A status leaves out what it cannot say")
    func status() throws {
        var status = StatusRecord()
        (status.state, status.fleet, status.node) = ("offline", "rig", "a")
        #expect(Self.text(status) == #"{"fleet":"rig","node":"a","state":"offline","version":1}"#)
        status.clock = ClockRecord(synchronized: true, offset: 0, maximumError: 0.5, estimatedError: 0.1)
        #expect(try WireJSON.decode(StatusRecord.self, from: WireJSON.bytes(status)) == status)
    }

    @Test("Bytes that are not a record are refused, never a crash: wrong types, deep nesting, random bytes; an event of no known name is read as a program's own")
    func refusals() throws {
        #expect(try WireJSON.decode(EventRecord.self, from: Array(#"{"event":"nonsense","level":2,"version":1}"#.utf8))
                == .custom(name: "nonsense", fields: ["level": .integer(2)]))
        for text in [#"{"event":"countdown","seconds_left":"3"}"#, #"{"event":3}"#, #"{"event":"kept","count":1}"#, "[]", "",
                     String(repeating: "[", count: 100) + String(repeating: "]", count: 100)] {
            #expect(throws: JSONError.self, "\(text)") { try WireJSON.decode(EventRecord.self, from: Array(text.utf8)) }
        }
        var generator = SystemRandomNumberGenerator()
        let pieces = [#"{"event":"#, #""photo""#, #""result""#, #","id":"#, "1", #""x""#, "null", "}", "[", "]", ",", #""outcome":"#,
                      #""listing""#, #""photos":"#, "true", "-1e400", ":"]
        for _ in 0..<5000 {
            let text = (0..<Int.random(in: 1...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            _ = try? WireJSON.decode(EventRecord.self, from: Array(text.utf8))
        }
    }
}
