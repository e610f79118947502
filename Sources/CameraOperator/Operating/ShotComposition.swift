import CameraKit

/// Shots composed into one picture, as a booth makes it: 640-pixel-wide cells with even margins,
/// in two columns (a grid) or one (a strip), from each shot's thumbnail (made at the cell's width,
/// and always JPEG, so HEIC shots compose too).
public enum ShotComposition {
    /// The width of each shot in the composed picture; shots to compose have thumbnails this wide.
    public static let cellWidth = 640

    /// The composed JPEG and its layout.
    public static func compose(_ shots: [Photo], columns: Int, quality: Int) async throws(OperatorError) -> (data: [UInt8], layout: PhotoComposer.Layout) {
        guard let first = shots.first else { throw .nothingToCompose }
        let cellHeight = (cellWidth * first.height / max(1, first.width)) / 2 * 2
        let columns = min(columns, shots.count)
        let layout = PhotoComposer.Layout(columns: columns, rows: (shots.count + columns - 1) / columns,
                                          cellWidth: cellWidth, cellHeight: cellHeight, margin: cellWidth / 40)
        do {
            return (try await PhotoComposer.compose(shots.map(\.thumbnailData), layout: layout, quality: quality), layout)
        } catch {
            throw .capture(error)
        }
    }
}
