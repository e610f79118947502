import Foundation

/// The frames a preview writes as grey pixels (`videoconvert ! video/x-raw,format=GRAY8 !
/// multifilesink location=FOLDER/frame-%05d.grey max-files=3`), read back by a test.
public struct PreviewFrames {
    public let folder: TemporaryFolder
    public let width: Int
    public let height: Int
    /// How many of the newest frames are kept; 0: all.
    private let kept: Int

    public init(width: Int, height: Int, keeping kept: Int = 3) throws {
        folder = try TemporaryFolder()
        (self.width, self.height, self.kept) = (width, height, kept)
    }

    /// The preview sink that writes the frames here.
    public var sink: String {
        "videoconvert ! video/x-raw,format=GRAY8 ! multifilesink location=\(folder.path("frame-%05d.grey")) max-files=\(kept)"
    }

    /// Every frame kept, oldest first, as grey pixels.
    public func all() throws -> [[UInt8]] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
            .map { [UInt8](try Data(contentsOf: folder.url.appendingPathComponent($0))) }
            .filter { $0.count == width * height }
    }

    /// The rows and columns of the bright pixels of a recent frame (the newest but one: the
    /// newest may be half written); `nil` while no frame shows any.
    public func brightArea() -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
        guard let frames = try? FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted(),
              let recent = frames.dropLast().last,
              let data = try? Data(contentsOf: folder.url.appendingPathComponent(recent)),  // the sink may have removed it meanwhile
              data.count == width * height else { return nil }
        let pixels = [UInt8](data)
        var rows: [Int] = [], columns = Set<Int>()
        for row in 0..<height {
            var lit = false
            for column in 0..<width where pixels[row * width + column] > 160 {
                lit = true
                columns.insert(column)
            }
            if lit { rows.append(row) }
        }
        guard let top = rows.first, let bottom = rows.last, let left = columns.min(), let right = columns.max() else { return nil }
        return (top...bottom, left...right)
    }

    /// The first bright area that `accepts`, looking every 0.3 s; `nil` only past a hang guard of
    /// two minutes, never a measure of how soon the preview shows it.
    public func waitForBrightArea(where accepts: (ClosedRange<Int>, ClosedRange<Int>) -> Bool = { _, _ in true }) async throws
        -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>)? {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(300))
            if let area = brightArea(), accepts(area.rows, area.columns) { return area }
        }
        return nil
    }
}
