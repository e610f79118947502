import FileSystem
import Glibc
import GStreamer
import ImageMetadata

/// A HEIC photo still to be encoded, kept while its JPEG proxy stands in for it: its frame (I420,
/// as the session took it) and everything its file needs, written to a spool as the library keeps
/// the proxy (``write(to:)``), so a process that ends before the HEIC is made leaves it to the next
/// one. A frame whose planes lie as the spool keeps them is written straight from its buffer.
///
/// The spool: a header, the settings, the frame's caps, the EXIF block, the frame's planes in
/// their default layout, and a CRC-32 of all of it; little-endian lengths, each checked when read.
public struct PendingHEVC: FileContents {
    /// What is kept: the frame taken, or a spool read back.
    private enum Contents: Sendable {
        /// The spool's header, and the frame whose planes follow it.
        case frame(header: [UInt8], frame: Frame)
        case spooled([UInt8])
    }

    /// A frame's buffer with its own and the spool's layout of its planes.
    private struct Frame: Sendable {
        let buffer: Buffer
        let source: VideoInfo
        let packed: VideoInfo

        /// Whether the buffer holds the planes where the spool keeps them, so it is written as it is.
        var isPacked: Bool {
            source.planes.count == packed.planes.count
                && zip(source.planes, packed.planes).allSatisfy { $0.offset == $1.offset && $0.stride == $1.stride }
        }
    }

    private let contents: Contents

    /// The largest spooled photo read back: a 12 MP frame is 18 MB.
    public static let maximumSpoolBytes = 512 * 1_048_576

    /// A photo read back from a spool; its bytes are checked when it is encoded.
    public init(spooled: [UInt8]) {
        contents = .spooled(spooled)
    }

    /// The bytes that start every spooled photo.
    private static let magic = Array("camctl-pending\n\u{0}".utf8)
    private static let version: UInt32 = 1

    /// The pending photo of an I420 frame (the format every session hands its photo output).
    init(frame: Sample, layout: HEICFile.Layout) throws(CaptureError) {
        guard let caps = frame.caps, let source = frame.videoInfo, source.format == "I420", let buffer = frame.buffer,
              let packed = try? VideoInfo(caps: caps), source.planes.count == 3 else {
            throw CaptureError(.pipeline, "the photo's frame (not I420) could not be kept for its HEIC")
        }
        guard buffer.count >= Self.lastByte(of: source) else {
            throw CaptureError(.pipeline, "the photo's frame is smaller than its format says")
        }
        var writer = SpoolWriter()
        writer.bytes(Self.magic)
        writer.u32(Self.version)
        for value in [layout.width, layout.height, layout.quality, layout.isTiled ? 1 : 0, layout.thumbnailWidth,
                      layout.thumbnailHeight, layout.orientation] { writer.u32(UInt32(value)) }
        writer.text(layout.turn)
        writer.text(caps.description)
        writer.block(layout.exif)
        writer.u64(UInt64(packed.frameSize))
        contents = .frame(header: writer.output, frame: Frame(buffer: buffer, source: source, packed: packed))
    }

    /// Writes the spool: the header, the frame's planes (from the buffer itself when it holds them
    /// as the spool does, else copied into place), and the checksum of both.
    public func write(to descriptor: Int32) -> Int32 {
        switch contents {
        case .spooled(let bytes):
            return bytes.write(to: descriptor)
        case .frame(let header, let frame):
            var crc = header.withUnsafeBytes { CRC32.checksum($0) }
            var failure = header.write(to: descriptor)
            guard failure == 0 else { return failure }
            if frame.isPacked {
                failure = (try? frame.buffer.withUnsafeBytes { bytes -> Int32 in
                    let planes = UnsafeRawBufferPointer(rebasing: bytes[..<min(bytes.count, frame.packed.frameSize)])
                    guard planes.count == frame.packed.frameSize else { return EINVAL }
                    crc = CRC32.checksum(planes, continuing: crc)
                    return DurableFile.writeAll(planes, to: descriptor)
                }) ?? EIO
            } else {
                guard let planes = Self.packedPlanes(of: frame) else { return EINVAL }
                crc = planes.withUnsafeBytes { CRC32.checksum($0, continuing: crc) }
                failure = planes.write(to: descriptor)
            }
            guard failure == 0 else { return failure }
            return Self.trailer(crc).write(to: descriptor)
        }
    }

    /// The spool's bytes, as ``write(to:)`` writes them.
    var spooled: [UInt8] {
        switch contents {
        case .spooled(let bytes):
            return bytes
        case .frame(let header, let frame):
            let planes = (frame.isPacked ? (try? frame.buffer.bytes()).map { Array($0.prefix(frame.packed.frameSize)) } : nil)
                ?? Self.packedPlanes(of: frame) ?? []
            let body = header + planes
            let crc = body.withUnsafeBytes { CRC32.checksum($0) }
            return body + Self.trailer(crc)
        }
    }

    /// The spool's last four bytes: the CRC-32 of all before them, little-endian.
    private static func trailer(_ crc: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: crc >> ($0 * 8)) }
    }

    /// The frame's planes copied into the spool's layout (what rows leave between them zeroed);
    /// `nil` when a plane reaches past the buffer or the layout.
    private static func packedPlanes(of frame: Frame) -> [UInt8]? {
        let (source, packed) = (frame.source, frame.packed)
        let planes = planeSizes(width: source.width, height: source.height)
        var output = [UInt8](repeating: 0, count: packed.frameSize)
        let copied = try? frame.buffer.withUnsafeBytes { bytes in
            output.withUnsafeMutableBytes { to -> Bool in
                for (index, (rowBytes, rows)) in planes.enumerated() {
                    let from = source.planes[index], into = packed.planes[index]
                    guard from.offset >= 0, from.stride >= rowBytes, from.offset + from.stride * (rows - 1) + rowBytes <= bytes.count,
                          into.offset >= 0, into.stride >= rowBytes, into.offset + into.stride * (rows - 1) + rowBytes <= to.count
                    else { return false }
                    for row in 0..<rows {
                        (to.baseAddress! + into.offset + row * into.stride)
                            .copyMemory(from: bytes.baseAddress! + from.offset + row * from.stride, byteCount: rowBytes)
                    }
                }
                return true
            }
        }
        return copied == true ? output : nil
    }

    /// The end of the last row of the frame's last plane.
    private static func lastByte(of info: VideoInfo) -> Int {
        zip(info.planes, planeSizes(width: info.width, height: info.height))
            .map { plane, size in plane.offset + plane.stride * (size.1 - 1) + size.0 }.max() ?? 0
    }

    /// The frame and the file's layout, read back from the spooled bytes.
    ///
    /// - Throws: ``CaptureError`` when the bytes are not a whole spooled photo of this version:
    ///   every length is checked against what is left and against the frame's format, and the
    ///   checksum against the content.
    func decoded() throws(CaptureError) -> (frame: Sample, layout: HEICFile.Layout) {
        let bytes = spooled
        let damaged = CaptureError(.pipeline, "the spooled photo is damaged")
        guard bytes.count >= Self.magic.count + 4, bytes.count <= Self.maximumSpoolBytes,
              Array(bytes.prefix(Self.magic.count)) == Self.magic,
              CRC32.checksum(bytes[..<(bytes.count - 4)]) == bytes.suffix(4).reversed().reduce(0, { $0 << 8 | UInt32($1) })
        else { throw damaged }
        var reader = SpoolReader(bytes: bytes[Self.magic.count..<(bytes.count - 4)])
        guard reader.u32() == Int(Self.version),
              let width = reader.u32(), let height = reader.u32(), let quality = reader.u32(), let tiled = reader.u32(),
              let thumbnailWidth = reader.u32(), let thumbnailHeight = reader.u32(), let orientation = reader.u32(),
              (16...65_535).contains(width), (16...65_535).contains(height), (1...100).contains(quality), tiled <= 1,
              thumbnailWidth <= 65_535, thumbnailHeight <= 65_535, (1...8).contains(orientation),
              let turn = reader.text(limit: 32), let capsText = reader.text(limit: 4096), let exif = reader.block(limit: 65_536),
              let frameSize = reader.u64(), let planes = reader.take(Int(clamping: frameSize)), reader.isAtEnd,
              let caps = try? Caps(capsText), let info = try? VideoInfo(caps: caps), info.format == "I420",
              info.frameSize == planes.count, let buffer = planes.withUnsafeBytes({ try? Buffer(copying: $0) })
        else { throw damaged }
        let layout = HEICFile.Layout(width: width, height: height, quality: quality, isTiled: tiled == 1, turn: turn,
                                     thumbnailWidth: thumbnailWidth, thumbnailHeight: thumbnailHeight, exif: exif, orientation: orientation)
        return (Sample(buffer: buffer, caps: caps), layout)
    }

    /// Bytes per row and rows of each I420 plane.
    private static func planeSizes(width: Int, height: Int) -> [(Int, Int)] {
        [(width, height), ((width + 1) / 2, (height + 1) / 2), ((width + 1) / 2, (height + 1) / 2)]
    }
}

/// Little-endian fields appended to a spooled photo.
private struct SpoolWriter {
    var output: [UInt8] = []

    mutating func bytes(_ bytes: [UInt8]) { output += bytes }
    mutating func u32(_ value: UInt32) { output += (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    mutating func u64(_ value: UInt64) { output += (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    mutating func block(_ bytes: [UInt8]) {
        u32(UInt32(bytes.count))
        output += bytes
    }
    mutating func text(_ text: String) { block(Array(text.utf8)) }
}

/// Fields read from a spooled photo, each checked against what is left.
private struct SpoolReader {
    let bytes: ArraySlice<UInt8>
    var position: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        position = bytes.startIndex
    }

    var isAtEnd: Bool { position == bytes.endIndex }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.endIndex - position else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    mutating func u32() -> Int? {
        take(4).map { $0.reversed().reduce(0) { $0 << 8 | Int($1) } }
    }

    mutating func u64() -> UInt64? {
        take(8).map { $0.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
    }

    mutating func block(limit: Int) -> [UInt8]? {
        guard let count = u32(), count <= limit, let content = take(count) else { return nil }
        return Array(content)
    }

    mutating func text(limit: Int) -> String? {
        block(limit: limit).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
