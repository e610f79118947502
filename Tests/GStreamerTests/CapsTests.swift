import GStreamer
import Testing

@Suite("Caps and structures", .hangGuard(minutes: 3))
struct CapsTests {
    @Test("Printed caps parse back to equal caps", arguments: [
        "video/x-raw, format=(string)I420, width=(int)1920, height=(int)1080, framerate=(fraction)30/1",
        "video/x-raw, format=(string){ YUY2, NV12 }, width=(int)[ 1, 4096 ], height=(int)[ 1, 2160 ], framerate=(fraction)[ 0/1, 2147483647/1 ]",
        "image/jpeg, width=(int)1280, height=(int)720, framerate=(fraction){ 30/1, 15/1 }; video/x-raw, format=(string)YUY2",
        "audio/x-raw, rate=(int)48000, channels=(int)2, layout=(string)interleaved",
        "ANY",
        "EMPTY",
    ])
    func roundTrip(text: String) throws {
        let caps = try Caps(text)
        #expect(caps.description == text)
        #expect(try Caps(caps.description) == caps)
    }

    @Test("Fields read as typed values")
    func fields() async throws {
        let caps = try Caps("video/x-raw, format={ I420, YUY2 }, width=640, height=[ 16, 480 ], framerate=30000/1001, pixel-aspect-ratio=1/1, interlaced=false")
        let structure = try #require(caps.structures.first)
        #expect(structure.name == "video/x-raw")
        #expect(structure["format"] == .list([.string("I420"), .string("YUY2")]))
        #expect(structure["width"]?.intValue == 640)
        #expect(structure["height"] == .intRange(16...480, step: 1))
        #expect(structure["framerate"]?.fractionValue == Fraction(30000, 1001))
        #expect(structure["interlaced"]?.boolValue == false)
        #expect(structure["missing"] == nil)
    }

    @Test("Structures built in Swift become caps")
    func buildFromStructures() async throws {
        var structure = Structure("video/x-raw", ["format": .string("I420"), "width": .int(320)])
        structure["height"] = .int(240)
        structure["framerate"] = .fraction(Fraction(25))
        let caps = try Caps([structure])
        #expect(caps.description == "video/x-raw, format=(string)I420, width=(int)320, height=(int)240, framerate=(fraction)25/1")
        #expect(caps.isFixed)
        #expect(try Structure(parsing: structure.description) == structure)
        structure["width"] = nil
        #expect(structure["width"] == nil)
    }

    @Test("Intersection keeps what both accept; fixation picks one format")
    func intersectAndFixate() async throws {
        let camera = try Caps("video/x-raw, format={ YUY2, I420 }, width=[ 160, 1920 ], height=[ 120, 1080 ], framerate=[ 1/1, 30/1 ]")
        let wanted = try Caps("video/x-raw, format=I420, width=1280, height=720")
        let both = camera.intersection(wanted)
        #expect(!both.isEmpty)
        #expect(both.isSubset(of: camera))
        #expect(camera.canIntersect(wanted))
        let fixed = both.fixated()
        #expect(fixed.isFixed)
        let structure = try #require(fixed.structures.first)
        #expect(structure["width"] == .int(1280))
        #expect(structure["framerate"] == .fraction(Fraction(1)), "default fixation takes the lowest rate of a range")
        #expect(camera.intersection(try Caps("image/jpeg")).isEmpty)
        #expect(try Caps.any.isAny)
    }

    @Test("Malformed caps and structures are refused")
    func malformed() async throws {
        #expect(throws: GStreamerError.self) { try Caps("video/x-raw, width=(int)wide") }
        #expect(throws: GStreamerError.self) { try Structure(parsing: "=nonsense") }
        #expect(throws: GStreamerError.self) { try Caps([Structure("1nvalid name")]) }
    }

    @Test("Fractions compare by value")
    func fractions() async {
        #expect(Fraction(30, 1) == Fraction(60, 2))
        #expect(Fraction(30000, 1001) < Fraction(30))
        #expect(Fraction(1, -2) == Fraction(-1, 2))
        #expect(Set([Fraction(1, 2), Fraction(2, 4)]).count == 1)
    }
}
