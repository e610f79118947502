import CameraKit
import CameraOperator
import FileSystem
import FoundationEssentials
import Glibc
import GStreamer
import ImageMetadata
import PhotoLibrary

/// `camctl overlay`: lays a drawing (a PNG with transparency) over a photo, as a drawing app merges
/// a drawing onto the photo it was drawn on.
struct OverlayCommand: Subcommand {
    static let name = "overlay"
    static let synopsis = """
        camctl overlay  PHOTO DRAWING [--output PATH] [--library DIR | --no-library] [--position X,Y] [--scale S] [--opacity 0-1]
                        [--quality 1-100]
        """
    static let summary = "lay a drawing (PNG with transparency) over a photo"
    static let help = """
        Adds PHOTO (a JPEG or HEIC) with DRAWING (a PNG with transparency) laid over it to the library (--library
        DIR, else $CAMCTL_LIBRARY, else ~/Pictures/camctl; not with --no-library) and to --output (a path,
        or - for standard output) when given, at the photo's size, with its EXIF and orientation kept
        and a thumbnail of the result in its EXIF, as a JPEG (a HEIC's pixels turned as it is shown);
        the path written is printed. --position is where the drawing's top-left
        corner goes, in pixels of the photo as it is displayed (0,0 by default); --scale multiplies the
        drawing's size (by default it is scaled to the photo's width); --opacity fades it (1 by
        default). The photo is encoded again at --quality (95 by default).
        """
    static let options: [ParsedArguments.Option] = [
        .init(name: "--output", value: "PATH", short: "-o"), .init(name: "--library", value: "DIR"), .init(name: "--no-library", value: nil),
        .init(name: "--position", value: "X,Y"),
        .init(name: "--scale", value: "S"), .init(name: "--opacity", value: "0-1"),
        .init(name: "--quality", value: "1-100", short: "-q"), .init(name: "--verbose", value: nil),
    ]

    let photo: String
    let drawing: DrawingOverlay
    let output: String?
    let library: PhotoSaving.Library
    let quality: Int

    init(_ arguments: ParsedArguments) throws(CommandFailure) {
        try arguments.requirePositionals(["PHOTO", "DRAWING"])
        photo = arguments.positionals[0]
        try arguments.refuseTogether("--library", "--no-library")
        output = arguments.string("--output")
        library = PhotoSaving.library(arguments)
        if library == .none, output == nil {
            throw CommandFailure("--no-library needs --output PATH, or the photo with the drawing would not be kept anywhere", exitCode: .usage)
        }
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
        if let output, output != "-" { try PhotoSaving.checkWritable(output) }
        let library = self.library
        // A library that cannot be opened is found out before any work.
        try await PhotoSaving.onLane { () throws(CommandFailure) in _ = try PhotoSaving.openLibrary(library) }
        let data: [UInt8]
        do {
            data = try RegularFile.contents(of: photo)
        } catch {
            throw CommandFailure("the photo \(photo) cannot be read: \(error.reason)", exitCode: .dataError)
        }
        let drawn: [UInt8]
        do {
            drawn = try await drawing.drawn(onto: data, quality: quality)
        } catch {
            throw CommandFailure(error.code == .unreadableFile ? CaptureError(.unreadableFile, "\(photo): \(error.message)") : error)
        }
        if let added = try await Self.add(drawn, to: library), output == nil {
            try Console.result(added.path)
        }
        guard let output else { return }
        if output == "-" {
            guard Console.bytes(drawn) else {
                throw CommandFailure("the photo could not be written to standard output: the reader went away", exitCode: .ioError)
            }
            return
        }
        try await PhotoSaving.write(drawn, to: output)
        try Console.result(output)
    }

    /// Adds the drawn photo (a JPEG) to the library with a thumbnail, as a photo made now.
    private static func add(_ drawn: [UInt8], to library: PhotoSaving.Library) async throws(CommandFailure) -> LibraryPhoto? {
        guard library != .none else { return nil }
        let size = JPEGFile.dimensions(of: drawn) ?? (0, 0)
        let orientation = JPEGFile.exifBlock(of: drawn).flatMap(JPEGFile.orientation(inExif:)) ?? 1
        let thumbnail: [UInt8]
        do {
            thumbnail = try await PhotoComposer.thumbnail(of: drawn, width: size.width, height: size.height, side: ShotComposition.thumbnailSide)
        } catch {
            throw CommandFailure(error)
        }
        let entry = NewPhoto(data: drawn, thumbnail: thumbnail, codec: "jpeg", width: size.width, height: size.height,
                             orientation: orientation, capturedAt: Date(), device: "camctl overlay")
        return try await PhotoSaving.onLane { () throws(CommandFailure) -> LibraryPhoto? in
            guard let opened = try PhotoSaving.openLibrary(library) else { return nil }
            do throws(LibraryError) {
                return try opened.add(entry)
            } catch {
                throw CommandFailure(error)
            }
        }
    }
}
