import CameraKit
import GStreamer
import Testing

@Suite("Choosing a camera format", .hangGuard(minutes: 3))
struct FormatSelectionTests {
    /// A Logitech C920 as the device monitor reports it (shared/notes/webcams.md).
    static let c920 = """
        video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction){ 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1 }; \
        video/x-raw, format=(string)YUY2, width=(int)1920, height=(int)1080, framerate=(fraction)5/1; \
        video/x-raw, format=(string)YUY2, width=(int)2304, height=(int)1536, framerate=(fraction)2/1; \
        image/jpeg, width=(int)1920, height=(int)1080, framerate=(fraction){ 30/1, 24/1, 20/1, 15/1, 10/1, 15/2, 5/1 }; \
        image/jpeg, width=(int)640, height=(int)480, framerate=(fraction){ 30/1, 15/1 }
        """

    static func capabilities() throws -> [VideoCapability] {
        VideoCapability.list(from: try Caps(c920))
    }

    @Test("Full HD at 30 fps takes MJPEG, never the 5 fps raw mode")
    func fullHDTakesMJPEG() async throws {
        let format = try FormatSelection.choose(for: FormatRequest(parsing: "1920x1080@30"), from: Self.capabilities(), camera: "C920")
        #expect(format == CaptureFormat(mediaType: "image/jpeg", width: 1920, height: 1080, frameRate: Fraction(30)))
        let withoutRate = try FormatSelection.choose(for: FormatRequest(parsing: "1920x1080"), from: Self.capabilities(), camera: "C920")
        #expect(withoutRate.mediaType == "image/jpeg" && withoutRate.frameRate == Fraction(30))
    }

    @Test("Without a rate: 30 fps where offered, else the highest rate below it, else a faster camera's slowest", arguments: [
        ("video/x-raw, format=(string)I420, width=(int)1280, height=(int)720, framerate=(fraction)[ 1/1, 1000/1 ]", Fraction(30)),
        ("video/x-raw, format=(string)I420, width=(int)1280, height=(int)720, framerate=(fraction){ 60/1, 25/1, 15/1 }", Fraction(25)),
        ("video/x-raw, format=(string)I420, width=(int)1280, height=(int)720, framerate=(fraction){ 120/1, 60/1 }", Fraction(60)),
        ("video/x-raw, format=(string)I420, width=(int)1280, height=(int)720, framerate=(fraction)[ 50/1, 240/1 ]", Fraction(50)),
    ])
    func usualRate(caps: String, expected: Fraction) async throws {
        let format = try FormatSelection.choose(for: FormatRequest(parsing: "1280x720"), from: VideoCapability.list(from: try Caps(caps)), camera: "camera")
        #expect(format.frameRate == expected)
    }

    @Test("Raw frames are preferred where they meet the rate")
    func rawWhereItMeetsTheRate() async throws {
        let format = try FormatSelection.choose(for: .low, from: Self.capabilities(), camera: "C920")
        #expect(format == CaptureFormat(mediaType: "video/x-raw", pixelFormat: "YUY2", width: 640, height: 480, frameRate: Fraction(30)))
    }

    @Test("A rate the camera cannot reach is refused, saying what it can do")
    func rateTooHigh() async throws {
        let error = #expect(throws: CaptureError.self) {
            try FormatSelection.choose(for: FormatRequest(parsing: "2304x1536@30"), from: Self.capabilities(), camera: "C920")
        }
        #expect(error?.code == .formatUnavailable)
        #expect(error?.message.hasPrefix("C920 offers 2304x1536 at most at 2 fps (2304x1536 YUY2 at 2 fps), not 30 fps") == true)
    }

    @Test("A size the camera lacks is refused with the list of what it offers")
    func sizeMissing() async throws {
        let error = #expect(throws: CaptureError.self) {
            try FormatSelection.choose(for: FormatRequest(parsing: "1280x720@30"), from: Self.capabilities(), camera: "C920")
        }
        #expect(error?.message == "C920 does not offer 1280x720 at 30 fps; it offers 640x480 YUY2 up to 30 fps, 1920x1080 YUY2 up to 5 fps, 2304x1536 YUY2 up to 2 fps, 1920x1080 MJPEG up to 30 fps, 640x480 MJPEG up to 30 fps")
        #expect(error?.remedy == .chooseOfferedFormat(["640x480 YUY2 up to 30 fps", "1920x1080 YUY2 up to 5 fps", "2304x1536 YUY2 up to 2 fps",
                                                      "1920x1080 MJPEG up to 30 fps", "640x480 MJPEG up to 30 fps"]))
    }

    @Test("A preset the camera lacks takes its best within it: the largest size at the rate, else the largest, else its smallest",
          arguments: [
        // A laptop's 720p camera: 720p MJPEG at 30 fps, not its 10 fps raw mode.
        ("image/jpeg, width=(int)1280, height=(int)720, framerate=(fraction)30/1; "
            + "video/x-raw, format=(string)YUY2, width=(int)1280, height=(int)720, framerate=(fraction)10/1; "
            + "video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction)30/1",
         "high", CaptureFormat(mediaType: "image/jpeg", width: 1280, height: 720, frameRate: Fraction(30))),
        // A VGA camera.
        ("video/x-raw, format=(string)YUY2, width=(int)640, height=(int)480, framerate=(fraction){ 30/1, 15/1 }",
         "high", CaptureFormat(mediaType: "video/x-raw", pixelFormat: "YUY2", width: 640, height: 480, frameRate: Fraction(30))),
        // Full HD only at 5 fps: a smaller size that runs at 30.
        ("video/x-raw, format=(string)YUY2, width=(int)1920, height=(int)1080, framerate=(fraction)5/1; "
            + "video/x-raw, format=(string)YUY2, width=(int)960, height=(int)540, framerate=(fraction)30/1",
         "high", CaptureFormat(mediaType: "video/x-raw", pixelFormat: "YUY2", width: 960, height: 540, frameRate: Fraction(30))),
        // Nothing within 640x480: the camera's smallest.
        ("video/x-raw, format=(string)NV12, width=(int)3840, height=(int)2160, framerate=(fraction)30/1; "
            + "video/x-raw, format=(string)NV12, width=(int)1920, height=(int)1200, framerate=(fraction)30/1",
         "low", CaptureFormat(mediaType: "video/x-raw", pixelFormat: "NV12", width: 1920, height: 1200, frameRate: Fraction(30))),
        // Within 720p, only slower than asked: its best rate there.
        ("video/x-raw, format=(string)YUY2, width=(int)1280, height=(int)720, framerate=(fraction){ 15/1, 10/1 }",
         "high", CaptureFormat(mediaType: "video/x-raw", pixelFormat: "YUY2", width: 1280, height: 720, frameRate: Fraction(15))),
    ])
    func presetFitsTheCamera(caps: String, preset: String, expected: CaptureFormat) throws {
        let format = try FormatSelection.choose(for: FormatRequest(parsing: preset), from: VideoCapability.list(from: try Caps(caps)), camera: "camera")
        #expect(format == expected)
    }

    @Test("A preset the camera offers is taken as it is; C920's medium is its 640x480, the largest within 720p")
    func presetOffered() async throws {
        #expect(try FormatSelection.choose(for: .high, from: Self.capabilities(), camera: "C920")
                == CaptureFormat(mediaType: "image/jpeg", width: 1920, height: 1080, frameRate: Fraction(30)))
        #expect(try FormatSelection.choose(for: .medium, from: Self.capabilities(), camera: "C920")
                == CaptureFormat(mediaType: "video/x-raw", pixelFormat: "YUY2", width: 640, height: 480, frameRate: Fraction(30)))
    }

    @Test("The photo preset takes the largest size")
    func photoPreset() async throws {
        let format = try FormatSelection.choose(for: .photo, from: Self.capabilities(), camera: "C920")
        #expect(format.width == 2304 && format.height == 1536)
    }

    @Test("Resolutions parse from presets and WxH@FPS", arguments: [
        ("high", FormatRequest(width: 1920, height: 1080, frameRate: Fraction(30), fitsCamera: true)),
        ("640x480", FormatRequest(width: 640, height: 480)),
        ("1280X720@60", FormatRequest(width: 1280, height: 720, frameRate: Fraction(60))),
        ("1920x1080@29.97", FormatRequest(width: 1920, height: 1080, frameRate: Fraction(30000, 1001))),
        ("1920x1080@30000/1001", FormatRequest(width: 1920, height: 1080, frameRate: Fraction(30000, 1001))),
    ])
    func parsing(text: String, expected: FormatRequest) async throws {
        #expect(try FormatRequest(parsing: text) == expected)
    }

    @Test("Malformed resolutions are refused", arguments: ["", "big", "1920", "1920x", "0x480", "640x480@", "640x480@fast", "640x480@30@30", "99999x10"])
    func malformed(text: String) async {
        #expect(throws: CaptureError.self) { try FormatRequest(parsing: text) }
    }
}
