import Foundation
import Printing
import TestSupport
import Testing

@Suite("Printing through libcups, to a real IPP printer", .printsToIPP,
       .enabled(if: IPPPrinter.isAvailable, "needs cups-ipp-utils, avahi-daemon and dbus-daemon"))
struct PrinterTests {
    /// A small JPEG made by GStreamer.
    static func picture(in folder: TemporaryFolder) async throws -> [UInt8] {
        let path = folder.path("picture.jpg")
        let made = try await ChildProcess.run("gst-launch-1.0", ["-q", "videotestsrc", "num-buffers=1", "!", "video/x-raw,width=320,height=240",
                                                                 "!", "jpegenc", "!", "filesink", "location=\(path)"])
        #expect(made.status == 0, "\(made.standardError)")
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Asks the printer how job `id` goes until it ends (a hang guard of two minutes).
    static func ending(of job: Int32, on printer: Printer) async throws -> PrintJobState {
        var state = try printer.state(ofJob: job)
        _ = try await until(every: .milliseconds(100)) {
            state = try printer.state(ofJob: job)
            if case .pending = state { return false }
            if case .processing = state { return false }
            return true
        }
        return state
    }

    @Test("A picture sent to an IPP printer by its URI is one job, printed, whose document is the picture")
    func printsByURI() async throws {
        let device = try await IPPPrinter()
        let folder = try TemporaryFolder()
        let picture = try await Self.picture(in: folder)
        let printer = try Printer(device.uri)
        let job = try printer.submit(picture, format: "image/jpeg", title: "camctl test", options: PrintOptions(copies: 1))
        #expect(job > 0)
        #expect(try await Self.ending(of: job, on: printer) == .completed)
        #expect(try device.documents() == [picture])
    }

    @Test("A printer that takes no JPEG refuses the picture with one sentence, and keeps no document")
    func refused() async throws {
        let device = try await IPPPrinter(formats: "application/pdf")
        let folder = try TemporaryFolder()
        let picture = try await Self.picture(in: folder)
        let printer = try Printer(device.uri)
        #expect { try printer.submit(picture, format: "image/jpeg", title: "camctl test") } throws: { error in
            (error as? PrintError)?.message.contains("refused") == true
        }
        #expect(try device.documents().isEmpty)
    }

    @Test("A printer nobody answers for, and a queue CUPS does not know, are one sentence each")
    func unreachable() async throws {
        #expect { try Printer("ipp://localhost:1/ipp/print") } throws: { error in
            (error as? PrintError)?.message.hasPrefix("the printer ipp://localhost:1/ipp/print cannot be reached") == true
        }
        #expect { try Printer("no-such-queue") } throws: { error in
            (error as? PrintError)?.message.hasPrefix("there is no printer no-such-queue") == true
        }
    }
}
