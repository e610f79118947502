import GStreamer
import HEIF

/// A photo as a HEIF file: a frame and its thumbnail encoded as HEVC by a set of encoders (kept
/// running for the next photo), with the EXIF block, and the orientation as `irot`/`imir`.
enum HEICFile {
    /// What the file is made of besides the frame.
    struct Layout: Sendable {
        let width: Int
        let height: Int
        let quality: Int
        /// A grid of 512x512 tiles rather than one picture.
        let isTiled: Bool
        /// How the pixels are turned first (a `videoflip` method).
        let turn: String
        /// The thumbnail's size; 0 for none.
        let thumbnailWidth: Int
        let thumbnailHeight: Int
        let exif: [UInt8]
        let orientation: Int
    }

    /// The side of a HEIC grid's tiles, as iPhones use.
    static let tileSide = 512

    static func encode(_ frame: Sample, as layout: Layout, with encoders: HEVCEncoders) async throws(CaptureError) -> [UInt8] {
        let quality = layout.quality, turn = layout.turn
        let main = layout.isTiled ? try await encoders.encoder(width: tileSide, height: tileSide, quality: quality, tiled: true)
            : try await encoders.encoder(width: layout.width, height: layout.height, quality: quality, turn: turn)
        let small = layout.thumbnailWidth > 0
            ? try await encoders.encoder(width: layout.thumbnailWidth, height: layout.thumbnailHeight, quality: quality, turn: turn)
            : nil
        async let thumbnail = small?.encode(frame)
        do {
            let primary: HEIFImage.Primary
            if layout.isTiled {
                let (tiles, columns) = try await main.encodeTiles(of: frame, width: layout.width, height: layout.height)
                primary = .grid(tiles: tiles, columns: columns, width: layout.width, height: layout.height)
            } else {
                primary = .single(try await main.encode(frame))
            }
            // The file's colour is the frame's, as the encoder's VUI says it.
            let colour = frame.videoInfo.map(\.colour).map {
                HEIFImage.Colour(primaries: $0.primaries, transfer: $0.transfer, matrix: $0.matrix, fullRange: $0.isFullRange)
            }
            return try HEIFImage(primary: primary, thumbnail: try await thumbnail, exif: layout.exif,
                                 orientation: layout.orientation, colour: colour).fileData()
        } catch let error as HEIFError {
            throw CaptureError(.pipeline, "the HEIC file could not be written: \(error.message)")
        } catch {
            throw CaptureError.converting(error, context: "the photo could not be encoded as HEVC")
        }
    }
}
