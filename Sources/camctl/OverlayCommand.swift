import CameraKit
import FileSystem
import FoundationEssentials
import Glibc
import ImageMetadata

/// `camctl overlay`: lays a drawing (a PNG with transparency) over a photo, as a drawing app merges
/// a drawing onto the photo it was drawn on.
struct OverlayCommand: Subcommand {
    static let name = "overlay"
    static let synopsis = """
        camctl overlay  PHOTO DRAWING --output PATH [--position X,Y] [--scale S] [--opacity 0-1] [--quality 1-100]
        """
    static let summary = "lay a drawing (PNG with transparency) over a photo"
    static let help = """
        Writes PHOTO (a JPEG) with DRAWING (a PNG with transparency) laid over it to --output (a path,
        or - for standard output), at the
        photo's size, with its EXIF and orientation kept. --position is where the drawing's top-left
        corner goes, in pixels of the photo as it is displayed (0,0 by default); --scale multiplies the
        drawing's size (by default it is scaled to the photo's width); --opacity fades it (1 by
        default). The photo is encoded again at --quality (95 by default).
        """
    static let options: [ParsedArguments.Option] = [
        .init(name: "--output", value: "PATH", short: "-o"), .init(name: "--position", value: "X,Y"),
        .init(name: "--scale", value: "S"), .init(name: "--opacity", value: "0-1"),
        .init(name: "--quality", value: "1-100", short: "-q"), .init(name: "--verbose", value: nil),
    ]

    let photo: String
    let drawing: DrawingOverlay
    let output: String
    let quality: Int

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals(["PHOTO", "DRAWING"])
        photo = arguments.positionals[0]
        guard let output = arguments.string("--output") else {
            throw CommandFailure("overlay needs --output PATH for the photo with the drawing", exitCode: .usage)
        }
        self.output = output
        var drawing: DrawingOverlay
        do {
            drawing = try DrawingOverlay(path: arguments.positionals[1])
        } catch {
            throw CommandFailure(error)
        }
        if let text = arguments.string("--position") {
            let parts = text.split(separator: ",").compactMap { Int($0) }
            guard parts.count == 2, parts.allSatisfy({ $0 >= 0 }) else {
                throw CommandFailure("--position \(text) is not X,Y in whole pixels, such as 40,60", exitCode: .usage)
            }
            (drawing.x, drawing.y) = (parts[0], parts[1])
        }
        drawing.scale = try arguments.number("--scale", in: 0.01...100)
        drawing.opacity = try arguments.number("--opacity", in: 0...1) ?? 1
        self.drawing = drawing
        quality = try arguments.integer("--quality", in: 1...100) ?? 95
    }

    func run() async throws(CommandFailure) {
        let data: [UInt8]
        do {
            data = try RegularFile.contents(of: photo)
        } catch {
            throw CommandFailure("the photo \(photo) cannot be read: \(error.reason)", exitCode: .dataError)
        }
        guard let size = JPEGFile.dimensions(of: data) else {
            throw CommandFailure("\(photo): the photo is not a JPEG picture; overlay reads JPEG photos", exitCode: .dataError)
        }
        guard size.width > 0, size.height > 0 else {
            throw CommandFailure("\(photo): the photo says it is \(size.width)x\(size.height) pixels, so it holds no picture; it is damaged", exitCode: .dataError)
        }
        let drawn: [UInt8]
        do {
            drawn = try await drawing.drawn(onto: data, quality: quality)
        } catch {
            throw CommandFailure(error)
        }
        if output == "-" {
            guard Console.bytes(drawn) else {
                throw CommandFailure("the photo could not be written to standard output: the reader went away", exitCode: .ioError)
            }
            return
        }
        try PhotoSaving.write(drawn, to: output)
        try Console.result(output)
    }
}
