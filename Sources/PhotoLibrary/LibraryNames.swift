import FileSystem
import FoundationEssentials
import ImageMetadata

/// The closed set of names the library gives its files. Only files so named are ever indexed,
/// served, copied out, replaced or removed: anything else in the folder (a person's notes, a copy,
/// a link, another program's temporary file) is not the library's and is left as it is.
///
/// Every name shares a stem, the capture time to the millisecond and a random suffix
/// (`20261130-050132.123-k3f9x2`):
/// - photos and movies: `STEM.jpg`, `STEM.heic`, `STEM.mp4`, `STEM.gif` in the folder;
/// - thumbnails: `STEM.jpg` in `thumbnails/`;
/// - JPEG renditions of HEIC photos, for screens that show no HEIC: `STEM.jpg` in `renditions/`;
/// - the RAW file a camera wrote beside a JPEG photo: `STEM.nef` (its own kind, lower case) in `raw/`;
/// - spooled frames of photos finished later: `STEM.pending` in `spool/`;
/// - recordings under way: `STEM.mp4` and the space held beside it, `STEM.reserve`, in `recordings/`;
/// - a file being written: `.NAME.PID.RANDOM.tmp` beside it, `NAME` one of the names above.
///
/// The access token, the guests' key and a booth's settings (`serve-token`, `guest-key`,
/// `booth-settings.json`) are outside this set, so no index row can name them.
extension PhotoLibrary {
    /// The library's subfolders, each a real folder (never a link) made by the library.
    static let subfolders = ["thumbnails", "spool", "recordings", "renditions", "raw"]

    /// `20261130-050132.123-k3f9x2.jpg`: the capture time, to the millisecond, and a random suffix.
    static func fileName(capturedAt date: Date, extension fileExtension: String) -> String {
        let stamp = fileStamp(date)
        let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
        let suffix = String((0..<6).map { _ in alphabet.randomElement()! })
        return "\(stamp)-\(suffix).\(fileExtension)"
    }

    /// A file's name without its extension: what a photo, its thumbnail, its spooled frame and its
    /// final file share.
    /// Where JPEG renditions of HEIC photos are kept, for screens that show no HEIC.
    static let renditionFolder = "renditions"

    /// Where a HEIC photo's rendition is kept, inside the library; `nil` for any other photo.
    static func renditionName(of photo: LibraryPhoto) -> String? {
        guard photo.codec == "hevc", photo.kind == .photo else { return nil }
        return renditionFolder + "/" + stem(of: photo.fileName) + ".jpg"
    }

    /// Where the RAW files cameras write beside their JPEG photos are kept.
    static let rawFolder = "raw"

    /// The name a photo's RAW file of kind `fileExtension` is kept under in `raw/`.
    static func rawName(for photoName: String, extension fileExtension: String) -> String {
        stem(of: photoName) + "." + fileExtension
    }

    /// Whether a name is one the library gives a RAW file.
    static func isRawFile(_ name: String) -> Bool {
        isLibraryName(name, extensions: Array(RawFileKind.extensions))
    }

    /// Whether a name read from the index for a photo's RAW file is the one the library gives it.
    static func isValidRaw(_ name: String, of file: String) -> Bool {
        isRawFile(name) && stem(of: name) == stem(of: file)
    }

    static func stem(of name: String) -> String {
        name.lastIndex(of: ".").map { String(name[..<$0]) } ?? ""
    }

    static func spoolName(for photoName: String) -> String {
        stem(of: photoName) + ".pending"
    }

    static func thumbnailName(for photoName: String) -> String {
        stem(of: photoName) + ".jpg"
    }

    /// Whether a name is one the library gives a photo or movie (``fileName(capturedAt:extension:)``).
    static func isPhotoFile(_ name: String) -> Bool {
        isLibraryName(name, extensions: ["jpg", "heic", "mp4", "gif"])
    }

    /// Whether a name is a library stem (`20261130-050132.123-k3f9x2`: eight digits, `-`, six
    /// digits, `.`, three digits, `-`, six lowercase letters or digits) with one of `extensions`.
    /// Read byte by byte: a library's opening checks every name in its folders.
    public static func isLibraryName(_ name: String, extensions: [String]) -> Bool {
        let bytes = Array(name.utf8)
        let stemLength = 26
        guard bytes.count > stemLength + 1, bytes[stemLength] == UInt8(ascii: ".") else { return false }
        for (index, byte) in bytes[..<stemLength].enumerated() {
            let fits = switch index {
            case 8, 19: byte == UInt8(ascii: "-")
            case 15: byte == UInt8(ascii: ".")
            case 0..<19: (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            default: (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            }
            guard fits else { return false }
        }
        let fileExtension = bytes[(stemLength + 1)...]
        return extensions.contains { $0.utf8.elementsEqual(fileExtension) }
    }

    /// Whether a name in `thumbnails/` is one the library gives a thumbnail.
    static func isThumbnail(_ name: String) -> Bool {
        name.hasSuffix(".jpg") && isPhotoFile(name)
    }

    /// Whether a name in `spool/` is one the library gives a spooled frame.
    static func isSpooled(_ name: String) -> Bool {
        isLibraryName(name, extensions: ["pending"])
    }

    /// Whether a name is the temporary file the library writes one of its files through (left
    /// behind only by a crash).
    static func isTemporary(_ name: String) -> Bool {
        guard let written = DurableFile.writtenName(ofTemporary: name) else { return false }
        return isPhotoFile(written) || isSpooled(written) || isRawFile(written)
    }

    /// Whether a name read from the index for a photo's thumbnail is the one the library gives
    /// that photo's thumbnail.
    static func isValidThumbnail(_ name: String, of file: String) -> Bool {
        isThumbnail(name) && name == thumbnailName(for: file)
    }
}
