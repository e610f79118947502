import Glibc

/// What an MP4 movie's boxes say: its picture's size, its frames and length, and how much of the
/// file is whole. A fragmented movie cut short (a recording killed or out of disk) is read up to
/// its last whole fragment: ``wholeLength`` is where a cut file is truncated to play cleanly.
///
/// Only box headers, the movie box and fragment headers are read, never the media, so a movie of
/// any length is read in little memory; every size and count is checked against what is there.
public struct MovieFile: Sendable, Equatable {
    /// The video track's picture size, in pixels.
    public let width: Int
    public let height: Int
    /// The video frames in the whole part of the file.
    public let frameCount: Int
    /// Their length in seconds.
    public let duration: Double
    /// The bytes from the start up to the end of the last whole box (and, in a fragmented movie,
    /// the last fragment whose media is all there).
    public let wholeLength: Int

    /// The most top-level boxes read; a file of more is refused, not walked for ever.
    static let maximumBoxes = 1_000_000
    /// The largest movie box and fragment header read into memory.
    static let maximumHeaderBox = 64 << 20

    /// Reads the movie at `path`.
    ///
    /// - Throws: ``HEIFError`` when it cannot be read or is not an MP4 movie with a video track.
    public init(path: String) throws(HEIFError) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw HEIFError("\(path) could not be opened: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try self.init(descriptor: descriptor, path: path)
    }

    /// Reads the movie open at `descriptor` (named `path` in errors), which stays open.
    public init(descriptor: Int32, path: String) throws(HEIFError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { throw HEIFError("\(path) is not a file") }
        try self.init(length: Int(status.st_size)) { offset, count throws(HEIFError) in
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            guard read == count else { throw HEIFError("\(path) could not be read at byte \(offset)") }
            return bytes
        }
    }

    /// Reads a movie held in memory.
    public init(data: [UInt8]) throws(HEIFError) {
        try self.init(length: data.count) { offset, count throws(HEIFError) in Array(data[offset..<offset + count]) }
    }

    /// Reads a movie of `length` bytes through `read(offset, count)`, which is only asked for
    /// bytes inside the length.
    init(length: Int, read: (Int, Int) throws(HEIFError) -> [UInt8]) throws(HEIFError) {
        var position = 0, boxes = 0, whole = 0
        var track: VideoTrack?
        var frames = 0, ticks = 0
        // A fragment's header waits for its media: its frames count once the media box is whole.
        var pendingFragment: (frames: Int, ticks: Int)?
        while length - position >= 8 {
            boxes += 1
            guard boxes <= Self.maximumBoxes else { throw HEIFError("the movie has more than \(Self.maximumBoxes) boxes") }
            var header = ByteReader(try read(position, min(16, length - position)))
            var size = try header.u32()
            let type = try header.fourCC()
            var headerLength = 8
            if size == 1 {
                guard let large = try? header.integer(8) else { break }
                (size, headerLength) = (large, 16)
            } else if size == 0 {
                size = length - position
            }
            guard size >= headerLength else { throw HEIFError("the \(type) box at byte \(position) says it is \(size) bytes") }
            guard size <= length - position else { break }  // cut inside this box
            if boxes == 1, type != "ftyp" { throw HEIFError("the file does not begin with an ftyp box: it is not an MP4 movie") }
            switch type {
            case "moov", "moof":
                guard size <= Self.maximumHeaderBox else { throw HEIFError("the \(type) box is \(size) bytes, more than a movie's headers take") }
                let body = try read(position + headerLength, size - headerLength)
                if type == "moov" {
                    let movie = try MovieBox(body)
                    track = movie.video
                    (frames, ticks) = (movie.video.frames, movie.video.ticks)
                    whole = position + size
                } else if let track {
                    pendingFragment = try Self.fragment(body, of: track)
                }
            case "mdat":
                if let fragment = pendingFragment {
                    (frames, ticks) = try Self.add(fragment, to: (frames, ticks))
                    pendingFragment = nil
                }
                whole = position + size
            default:
                if pendingFragment == nil { whole = position + size }
            }
            position += size
        }
        guard let track else { throw HEIFError("the movie has no movie box with a video track") }
        (width, height, frameCount, wholeLength) = (track.width, track.height, frames, whole)
        duration = Double(ticks) / Double(track.timescale)
    }

    private static func add(_ fragment: (frames: Int, ticks: Int), to total: (Int, Int)) throws(HEIFError) -> (Int, Int) {
        let (frames, overflowA) = total.0.addingReportingOverflow(fragment.frames)
        let (ticks, overflowB) = total.1.addingReportingOverflow(fragment.ticks)
        guard !overflowA, !overflowB else { throw HEIFError("the movie's fragments say more frames than a file holds") }
        return (frames, ticks)
    }

    /// The video track's frames and ticks in a movie fragment's header (`moof`).
    private static func fragment(_ body: [UInt8], of track: VideoTrack) throws(HEIFError) -> (frames: Int, ticks: Int) {
        var reader = ByteReader(body), total = (0, 0)
        while !reader.isAtEnd {
            let (type, trackFragment) = try reader.box()
            guard type == "traf" else { continue }
            var boxes = trackFragment, defaultDuration = track.defaultSampleDuration, isVideo = false
            while !boxes.isAtEnd {
                var (inner, box) = try boxes.box()
                switch inner {
                case "tfhd":
                    let flags = try box.u32() & 0xFF_FFFF
                    isVideo = try box.u32() == track.id
                    if flags & 0x01 != 0 { _ = try box.bytes(8) }
                    if flags & 0x02 != 0 { _ = try box.u32() }
                    if flags & 0x08 != 0 { defaultDuration = try box.u32() }
                case "trun" where isVideo:
                    let run = try Self.run(&box, defaultDuration: defaultDuration)
                    total = try add(run, to: total)
                default:
                    continue
                }
            }
        }
        return total
    }

    /// A track run's (`trun`) samples and their ticks.
    private static func run(_ box: inout ByteReader, defaultDuration: Int) throws(HEIFError) -> (frames: Int, ticks: Int) {
        let flags = try box.u32() & 0xFF_FFFF
        let count = try box.u32()
        if flags & 0x001 != 0 { _ = try box.u32() }
        if flags & 0x004 != 0 { _ = try box.u32() }
        let fieldsPerSample = [0x100, 0x200, 0x400, 0x800].filter { flags & $0 != 0 }.count
        guard fieldsPerSample > 0 else {
            let (ticks, overflow) = count.multipliedReportingOverflow(by: defaultDuration)
            guard !overflow else { throw HEIFError("a track run says more ticks than a movie holds") }
            return (count, ticks)
        }
        var ticks = 0
        for _ in 0..<count {  // each sample's fields are read, so the count is bounded by the box's size
            let duration = flags & 0x100 != 0 ? try box.u32() : defaultDuration
            for _ in 0..<(fieldsPerSample - (flags & 0x100 != 0 ? 1 : 0)) { _ = try box.u32() }
            ticks += duration  // at most 2^32 a sample, and fewer samples than the box has bytes
        }
        return (count, ticks)
    }
}

/// The video track of a movie box (`moov`): its id, size, time scale, the frames its sample table
/// holds and their ticks, and the default frame duration its fragments inherit.
private struct VideoTrack {
    var id = 0, width = 0, height = 0, timescale = 0
    var frames = 0, ticks = 0, defaultSampleDuration = 0
}

private struct MovieBox {
    let video: VideoTrack

    init(_ body: [UInt8]) throws(HEIFError) {
        var reader = ByteReader(body)
        var video: VideoTrack?, defaults: [Int: Int] = [:]
        while !reader.isAtEnd {
            let (type, box) = try reader.box()
            switch type {
            case "trak" where video == nil:
                video = try Self.track(box)
            case "mvex":
                var extends = box
                while !extends.isAtEnd {
                    var (inner, trex) = try extends.box()
                    guard inner == "trex" else { continue }
                    _ = try trex.u32()
                    let id = try trex.u32()
                    _ = try trex.u32()
                    defaults[id] = try trex.u32()
                }
            default:
                continue
            }
        }
        guard var video else { throw HEIFError("the movie has no video track") }
        video.defaultSampleDuration = defaults[video.id] ?? 0
        self.video = video
    }

    /// The track, when it is video with a picture size and a time scale.
    private static func track(_ body: ByteReader) throws(HEIFError) -> VideoTrack? {
        var reader = body, track = VideoTrack(), isVideo = false
        while !reader.isAtEnd {
            var (type, box) = try reader.box()
            switch type {
            case "tkhd":
                let version = try box.u8()
                _ = try box.bytes(3)
                _ = try box.bytes(version == 1 ? 16 : 8)
                track.id = try box.u32()
                _ = try box.bytes(4 + (version == 1 ? 8 : 4) + 8 + 2 + 2 + 2 + 2 + 36)
                track.width = try box.u32() >> 16
                track.height = try box.u32() >> 16
            case "mdia":
                var media = box
                while !media.isAtEnd {
                    var (inner, part) = try media.box()
                    switch inner {
                    case "mdhd":
                        let version = try part.u8()
                        _ = try part.bytes(3 + (version == 1 ? 16 : 8))
                        track.timescale = try part.u32()
                    case "hdlr":
                        _ = try part.bytes(8)
                        isVideo = try part.fourCC() == "vide"
                    case "minf":
                        (track.frames, track.ticks) = try Self.sampleTimes(part)
                    default:
                        continue
                    }
                }
            default:
                continue
            }
        }
        guard isVideo else { return nil }
        guard track.width > 0, track.height > 0, track.timescale > 0 else {
            throw HEIFError("the video track has no picture size or no time scale")
        }
        return track
    }

    /// The frames and ticks of a media information box's sample table (`minf/stbl/stts`).
    private static func sampleTimes(_ information: ByteReader) throws(HEIFError) -> (Int, Int) {
        var reader = information
        while !reader.isAtEnd {
            let (type, table) = try reader.box()
            guard type == "stbl" else { continue }
            var boxes = table
            while !boxes.isAtEnd {
                var (inner, stts) = try boxes.box()
                guard inner == "stts" else { continue }
                _ = try stts.u32()
                let entries = try stts.u32()
                var frames = 0, ticks = 0
                for _ in 0..<entries {  // each entry is read, so the count is bounded by the box's size
                    let count = try stts.u32(), delta = try stts.u32()
                    let (product, overflowA) = count.multipliedReportingOverflow(by: delta)
                    let (sum, overflowB) = ticks.addingReportingOverflow(product)
                    frames += count  // at most 2^32 an entry, and fewer entries than the box has bytes
                    guard !overflowA, !overflowB else { throw HEIFError("the movie's sample table says more ticks than a movie holds") }
                    ticks = sum
                }
                return (frames, ticks)
            }
        }
        return (0, 0)
    }
}
