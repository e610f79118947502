import CameraKit
import FoundationEssentials
import Glibc

/// Shots composed into one picture, as a booth makes it: 640-pixel-wide cells with even margins,
/// in two columns (a grid) or one (a strip), or a template's slots, from each shot's thumbnail
/// (made at the size of the layout's places, and always JPEG, so HEIC shots compose too).
public enum ShotComposition {
    /// The width of each shot in the composed picture; shots to compose have thumbnails this wide.
    public static let cellWidth = 640
    /// The most shots one picture composes; older shots give way to newer ones.
    public static let maximumShots = 64

    /// A shot as a composition needs it: its thumbnail, its shape, its time, and which capture it was.
    struct Cell: Sendable {
        let thumbnail: [UInt8]
        let width: Int
        let height: Int
        let takenAt: Date
        let captureID: Int
        /// The shot's id in the library once delivered there.
        var libraryID: Int64?

        init(_ photo: Photo) {
            (thumbnail, width, height, takenAt, captureID) = (photo.thumbnailData, photo.width, photo.height, photo.requestedAt, photo.captureID)
        }
    }

    /// The longest side of a composed picture's thumbnail, as a photo's (``PhotoSettings/thumbnailMaximumSide``).
    public static let thumbnailSide = PhotoSettings().thumbnailMaximumSide ?? 320

    /// A thumbnail of a composed picture of `size`: the whole picture, its longest side ``thumbnailSide``.
    static func thumbnail(of picture: [UInt8], size: (width: Int, height: Int)) async throws(OperatorError) -> [UInt8] {
        do {
            return try await PhotoComposer.thumbnail(of: picture, width: size.width, height: size.height, side: thumbnailSide)
        } catch {
            throw .capture(error)
        }
    }

    /// The composed JPEG and its size: a grid with places for `slots` shots (the shots' count
    /// when `nil`), or a template's slots, the newest shots that fit; places beyond the shots stay empty.
    static func compose(_ cells: [Cell], layout: ShotLayout, slots: Int? = nil, quality: Int) async throws(OperatorError)
        -> (data: [UInt8], size: (width: Int, height: Int)) {
        guard let first = cells.first else { throw .nothingToCompose }
        do {
            switch layout {
            case .grid(let columns):
                let cellHeight = (cellWidth * first.height / max(1, first.width)) / 2 * 2
                let places = max(slots ?? 0, cells.count)
                let columns = min(columns, places)
                let grid = PhotoComposer.Layout(columns: columns, rows: (places + columns - 1) / columns,
                                                cellWidth: cellWidth, cellHeight: cellHeight, margin: cellWidth / 40)
                return (try await PhotoComposer.compose(cells.map(\.thumbnail), layout: grid, quality: quality), (grid.width, grid.height))
            case .template(let file):
                let shots = cells.suffix(file.template.slots.count).map(\.thumbnail)
                return (try await file.compose(Array(shots), quality: quality), (file.template.width, file.template.height))
            }
        } catch {
            throw .capture(error)
        }
    }
}
