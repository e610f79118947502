import Blocking
import CameraKit
import FileSystem
import FoundationEssentials
import GStreamer
import ImageMetadata
import JSON
import PhotoLibrary

/// `fleet capture --bullet-time FILE`: the photos of one synchronized capture, collected, made
/// into a clip in the rig's node order (n1, n2, …, n10: numbers in names counted as numbers),
/// swept there and back, one frame a node at 10 frames a second: an MP4, or a GIF that loops.
struct BulletTime {
    /// Where the clip is written: `….mp4` or `….gif`.
    let path: String

    /// `path` checked: an MP4 or GIF name, somewhere a file may be written.
    init(_ path: String) throws(CommandFailure) {
        let lowered = path.lowercased()
        guard lowered.hasSuffix(".mp4") || lowered.hasSuffix(".gif") else {
            throw CommandFailure("--bullet-time \(path) names no .mp4 or .gif file", exitCode: .usage)
        }
        do {
            try PhotoLibrary.checkDestination(path)
            try OutputFile.check(path)
        } catch {
            throw CommandFailure("--bullet-time \(path) cannot be written: \(error.reason)", exitCode: .cannotCreate)
        }
        self.path = path
    }

    /// Makes the clip of the capture's `photos` (each node's name for its photo), found where
    /// the collection keeps them (`kept`, by ``CollectionTally/key(_:_:)``), and tells where it is.
    ///
    /// - Throws: ``CommandFailure`` when a photo of the capture was not collected (naming its
    ///   node: a sweep with a gap is no bullet time), or the clip cannot be made or written.
    func make(of photos: [(node: String, fileName: String)], kept: [String: String], printsJSON: Bool) async throws(CommandFailure) {
        let sorted = photos.sorted { Self.precedes($0.node, $1.node) }
        let missing = sorted.filter { kept[CollectionTally.key($0.node, $0.fileName)] == nil }.map(\.node)
        guard missing.isEmpty, !sorted.isEmpty else {
            throw CommandFailure("the photos of \(missing.isEmpty ? "the capture" : missing.joined(separator: ", ")) were not collected, "
                + "so no bullet time was made; collect them (camctl fleet collect) and capture again", exitCode: .unavailable)
        }
        let ordered = sorted.compactMap { kept[CollectionTally.key($0.node, $0.fileName)] }
        let lane = BlockingLane(label: "bullet-time")
        let read = await lane.run { () -> Result<[[UInt8]], CommandFailure> in
            Result { () throws(CommandFailure) in
                var pictures: [[UInt8]] = []
                for path in ordered {
                    do throws(RegularFile.ReadError) {
                        pictures.append(try RegularFile.contents(of: path))
                    } catch {
                        throw CommandFailure("\(path) could not be read (\(error.reason)); no bullet time was made", exitCode: .ioError)
                    }
                }
                return pictures
            }
        }
        let pictures = try read.get()
        let width = min(1280, JPEGFile.dimensions(of: pictures[0])?.width ?? 640) / 2 * 2
        let clip: ShotAnimation.Clip
        do throws(CaptureError) {
            clip = try await ShotAnimation.sweep(pictures, asGIF: path.lowercased().hasSuffix(".gif"), width: max(2, width),
                                                 folder: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        } catch {
            throw CommandFailure(error)
        }
        let target = path
        let written = await lane.run { () -> DurableFile.WriteError? in
            do throws(DurableFile.WriteError) {
                _ = try OutputFile.write(clip.data, to: target)
                return nil
            } catch {
                return error
            }
        }
        if let written { throw CommandFailure("--bullet-time \(path) could not be written: \(written.reason)", exitCode: .cannotCreate) }
        if printsJSON {
            try Console.json(["bullet_time": .string(path), "photos": .integer(Int64(ordered.count)), "width": .integer(Int64(clip.width)),
                              "height": .integer(Int64(clip.height)), "duration": .number(clip.duration)] as JSONValue)
        } else {
            try Console.result("bullet time of \(ordered.count) photos: \(path)")
        }
    }

    /// Whether node `left` comes before `right` in a rig's order: names compared with the numbers
    /// in them counted as numbers (n2 before n10).
    static func precedes(_ left: String, _ right: String) -> Bool {
        let (a, b) = (runs(of: left), runs(of: right))
        for (x, y) in zip(a, b) where x != y {
            if let first = Int(x), let second = Int(y) { return first < second }
            return x < y
        }
        return a.count < b.count
    }

    /// A name cut into runs of digits and runs of other characters (`n10a` is `n`, `10`, `a`).
    private static func runs(of name: String) -> [Substring] {
        var runs: [Substring] = []
        var start = name.startIndex
        for index in name.indices.dropFirst() where name[index].isNumber != name[name.index(before: index)].isNumber {
            runs.append(name[start..<index])
            start = index
        }
        if start < name.endIndex { runs.append(name[start...]) }
        return runs
    }
}
