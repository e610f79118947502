/// A still picture to write as a HEIF (`.heic`) file, as an iPhone writes one: an HEVC primary
/// image (one picture, or a grid of tiles), a thumbnail, EXIF, colour and orientation.
public struct HEIFImage: Sendable {
    /// The primary image.
    public enum Primary: Sendable {
        /// One picture of the whole size (HEVC level 6 at 12 MP).
        case single(HEVCPicture)
        /// Tiles of equal size in rows, cropped to `width`x`height` (iPhones use 512x512 tiles,
        /// each within HEVC level 3, for decoders with level limits).
        case grid(tiles: [HEVCPicture], columns: Int, width: Int, height: Int)
    }

    /// Colour as the stream's VUI signals it (an `nclx` colour property).
    public struct Colour: Sendable, Equatable {
        public var primaries: Int
        public var transfer: Int
        public var matrix: Int
        public var fullRange: Bool

        public init(primaries: Int, transfer: Int, matrix: Int, fullRange: Bool) {
            (self.primaries, self.transfer, self.matrix, self.fullRange) = (primaries, transfer, matrix, fullRange)
        }
    }

    public var primary: Primary
    /// A small picture for quick display, referenced as the primary's `thmb`.
    public var thumbnail: HEVCPicture?
    /// EXIF in TIFF form (starting `MM\0*` or `II*\0`), stored as an `Exif` item.
    public var exif: [UInt8]?
    /// The EXIF orientation (1–8) the stored pixels need; written as `irot`/`imir`.
    public var orientation: Int
    public var colour: Colour?

    public init(primary: Primary, thumbnail: HEVCPicture? = nil, exif: [UInt8]? = nil, orientation: Int = 1,
                colour: Colour? = nil) {
        self.primary = primary
        self.thumbnail = thumbnail
        self.exif = exif
        self.orientation = orientation
        self.colour = colour
    }

    /// The file: `ftyp`, `meta` and `mdat`.
    public func fileData() throws(HEIFError) -> [UInt8] {
        guard (1...8).contains(orientation) else { throw HEIFError("the orientation \(orientation) is not an EXIF orientation (1 to 8)") }
        var layout = try ItemLayout(self)
        var file = ByteWriter()
        file.box("ftyp") { ftyp in
            ftyp.fourCC("heic")
            ftyp.u32(0)
            ftyp.fourCC("mif1")
            ftyp.fourCC("heic")
        }
        let metaStart = file.bytes.count
        file.append(layout.meta())
        // Item data goes in mdat, after its 8-byte header; iloc's offsets count from the file's start.
        var offset = file.bytes.count + 8
        for patch in layout.offsetPatches {
            file.patchU32(at: metaStart + patch.position, offset)
            offset += patch.length
        }
        file.box("mdat") { mdat in
            for item in layout.items where item.inMediaData { mdat.append(item.data) }
        }
        return file.bytes
    }
}
