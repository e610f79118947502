import CameraKit
import CGStreamer
@testable import GStreamer
import TestSupport
import Testing

@Suite("Descriptions built element by element, as gst_parse builds them", .hangGuard(minutes: 3))
struct PlainLaunchTests {
    /// A bin's elements, their settings and their links, in a form that does not depend on the
    /// numbers GStreamer gives unnamed elements or on the order a tee's pads were asked for.
    static func shape(of bin: Bin) -> [String] {
        func plain(_ name: String) -> String { String(name.reversed().drop(while: \.isNumber).reversed()) }
        func pad(_ name: String) -> String { name.hasPrefix("src_") ? "src_%u" : name }
        var lines: [String] = []
        for element in bin.elements {
            let name = plain(element.name)
            let settings = element.propertyNames.filter { !["name", "parent"].contains($0) }.map { property in
                "\(property)=" + ((try? element.property(property)).map { "\($0)" } ?? "?")
            }
            lines.append("\(element.factoryName ?? "?") \(name) " + settings.joined(separator: " "))
            for each in element.pads {
                lines.append("\(name):\(pad(each.name)) -> " + (each.peer.map { plain($0.elementName ?? "?") + ":" + pad($0.name) } ?? "nothing"))
            }
        }
        return lines.sorted()
    }

    /// The pipeline gst_parse builds of a description.
    static func parsed(_ text: String) throws -> Pipeline {
        var error: UnsafeMutablePointer<GError>?
        let raw = gst_parse_launch_full(text, nil, GST_PARSE_FLAG_FATAL_ERRORS, &error)
        if let error { g_error_free(error) }
        let built = try #require(raw)
        try #require(error == nil && cgst_instance_is_a(built, gst_pipeline_get_type()) != 0, "\(text)")
        return Pipeline(adopting: gst_object_ref_sink(built).assumingMemoryBound(to: GstElement.self))
    }

    /// The sessions whose pipelines are compared: every output, filters, a look, turns.
    static func sessions() throws -> [SessionConfiguration] {
        var base = try CaptureSessionTests.configuration("320x240@30")
        base.preview = PreviewConfiguration(sink: "fakesink")
        var all = [base]
        var outputs = base
        outputs.videoData = VideoDataConfiguration(pixelFormat: "RGB")
        outputs.liveJPEG = LiveJPEGConfiguration()
        outputs.liveH264 = LiveH264Configuration()
        outputs.movies = true
        all.append(outputs)
        var filtered = outputs
        filtered.filters = ["videobalance saturation=0", "videoflip method=horizontal-flip"]
        filtered.image.zoom = 2
        filtered.image.brightness = 0.1
        filtered.image.filters = [.sepia, .heat]
        filtered.image.rotation = 90
        filtered.image.texts = [TextMark(.caption("a caption"))]
        all.append(filtered)
        var bare = base
        bare.preview = nil
        bare.capturesPhotos = false
        all.append(bare)
        return all
    }

    @Test("Every session's pipeline, and camctl's encoders', is read as plain and built as gst_parse builds it: the same elements, settings and links")
    func sameAsGstParse() async throws {
        var texts: [String] = []
        for configuration in try Self.sessions() {
            texts.append(try await CaptureSession(configuration: configuration).pipelineDescription())
        }
        texts += [
            "appsrc name=input format=time ! jpegenc name=encoder ! appsink name=output sync=false",
            "appsrc name=input format=time ! videoflip name=turn ! videoscale ! capsfilter name=size ! jpegenc name=encoder ! appsink name=output sync=false",
            "videotestsrc num-buffers=3 ! video/x-raw,format=I420,width=64,height=48 ! tee name=t t. ! queue ! fakesink t. ! queue ! fakesink sync=true",
            "videotestsrc ! capsfilter caps=\"video/x-raw, width=(int)64\" ! fakesink",
        ]
        for text in texts {
            #expect(PlainLaunch(text) != nil, "not read as plain: \(text)")
            let built = try Pipeline(describing: text), reference = try Self.parsed(text)
            #expect(Self.shape(of: built) == Self.shape(of: reference), "\(text)")
        }
    }

    @Test("What is not plain is left to gst_parse: bins, pad names, links into a named element, forward references, escapes, other quoting")
    func notPlain() throws {
        let refused = [
            "", "   ", "!", "a !", "! a", "a ! ! b", "a b=", "a b=\"x", "a b='x'", "a b=x\\y", "a b=\"x\\\"y\"", "b. ! a name=b",
            "a name=x x.src ! b", "bin. ( a )", "( a ! b )", "a ! b.", "a name=n ! b name=n", "a = b", "a b = c", "file:///x",
            "a ! video/x-raw", "a ! video/x-raw;video/y ! b", "a b=c!d", "a,b", "3a", "a ! \"video/x-raw\" ! b", "a b=\"x\"y",
            "a ! b name=x x. c=d", "a. ", "a ! b c. ! d", "a b=c\u{0} ! d",
        ]
        for text in refused {
            #expect(PlainLaunch(text) == nil, "read as plain: \(text)")
        }
        // Such a description still builds, through gst_parse.
        let bin = try Pipeline(describing: "bin. ( videotestsrc num-buffers=1 ! fakesink )")
        #expect(bin.elements.count == 1)
    }

    @Test("The plain form read: elements with their settings as written, links with their caps, branches from a named element")
    func read() throws {
        let text = "videotestsrc is-live=true ! video/x-raw,format=I420 , width=2 ! tee name=split split. ! queue leaky=downstream "
            + "! capsfilter caps=\"video/x-raw, width=1\" ! fakesink split. ! fakesink  sync=false\n"
        let plain = try #require(PlainLaunch(text))
        #expect(plain.elements.map(\.factory) == ["videotestsrc", "tee", "queue", "capsfilter", "fakesink", "fakesink"])
        #expect(plain.elements[3].properties == [PlainLaunch.Property(name: "caps", value: "video/x-raw, width=1")])
        #expect(plain.elements[5].properties == [PlainLaunch.Property(name: "sync", value: "false")])
        #expect(plain.links == [PlainLaunch.Link(from: 0, to: 1, caps: "video/x-raw,format=I420 , width=2"), PlainLaunch.Link(from: 1, to: 2),
                                PlainLaunch.Link(from: 2, to: 3), PlainLaunch.Link(from: 3, to: 4), PlainLaunch.Link(from: 1, to: 5)])
    }

    @Test("A description whose element is not installed, or whose setting does not fit, fails as gst_parse says")
    func failuresAsGstParse() {
        #expect(throws: GStreamerError.self) { try Pipeline(describing: "videotestsrc ! nosuchelement ! fakesink") }
        #expect(throws: GStreamerError.self) { try Pipeline(describing: "videotestsrc num-buffers=many ! fakesink") }
        #expect(throws: GStreamerError.self) { try Pipeline(describing: "videotestsrc nosuchproperty=1 ! fakesink") }
        #expect(throws: GStreamerError.self) { try Pipeline(describing: "audiotestsrc ! jpegenc ! fakesink") }
    }
}
