import GStreamer

/// A ``Tone`` as lookup tables for 8-bit I420 frames, applied in place: one table for luma, and
/// one for each chroma pair (Cb, Cr together, so a tone can move a colour anywhere).
final class ToneMap: Sendable {
    private let luma: [UInt8]
    /// `Cb << 8 | Cr` to `Cb' << 8 | Cr'`.
    private let chroma: [UInt16]

    /// The tables for `tone` on samples of the given range: video range (luma 16–235, chroma
    /// 16–240) or full range (0–255).
    init(_ tone: Tone, fullRange: Bool) {
        let (lumaLow, lumaSpan, chromaSpan) = fullRange ? (0.0, 255.0, 255.0) : (16.0, 219.0, 224.0)
        func byte(_ value: Double) -> Int { Int(min(255, max(0, value.rounded()))) }
        luma = (0...255).map { sample in
            UInt8(byte(lumaLow + tone.luma((Double(sample) - lumaLow) / lumaSpan).clamped(to: 0...1) * lumaSpan))
        }
        var chroma = [UInt16](repeating: 0, count: 65536)
        for cb in 0...255 {
            for cr in 0...255 {
                let (u, v) = tone.chroma((Double(cb) - 128) / chromaSpan, (Double(cr) - 128) / chromaSpan)
                chroma[cb << 8 | cr] = UInt16(byte(128 + u.clamped(to: -0.5...0.5) * chromaSpan)) << 8
                    | UInt16(byte(128 + v.clamped(to: -0.5...0.5) * chromaSpan))
            }
        }
        self.chroma = chroma
    }

    /// Rewrites an I420 frame laid out as `info` says; a frame of another format, or smaller than
    /// its layout, is left as it is.
    func apply(to frame: UnsafeMutableRawBufferPointer, info: VideoInfo) {
        guard info.format == "I420", info.planes.count == 3, let base = frame.baseAddress else { return }
        let chromaWidth = (info.width + 1) / 2, chromaHeight = (info.height + 1) / 2
        let sizes = [(info.width, info.height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
        let fits = zip(info.planes, sizes).allSatisfy { plane, size in
            plane.stride >= size.0 && plane.offset >= 0 && plane.offset + plane.stride * (size.1 - 1) + size.0 <= frame.count
        }
        guard fits else { return }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        Self.mapLuma(bytes + info.planes[0].offset, stride: info.planes[0].stride, width: info.width, height: info.height,
                     through: luma)
        Self.mapChroma(bytes + info.planes[1].offset, bytes + info.planes[2].offset, strides: (info.planes[1].stride, info.planes[2].stride),
                       width: chromaWidth, height: chromaHeight, through: chroma)
    }

    @_optimize(speed)  // the hot loops: fast in debug builds (the tests) as in release
    private static func mapLuma(_ plane: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, height: Int, through table: [UInt8]) {
        table.withUnsafeBufferPointer { table in
            let lookup = table.baseAddress!
            for row in 0..<height {
                let line = plane + row * stride
                for column in 0..<width { line[column] = lookup[Int(line[column])] }
            }
        }
    }

    @_optimize(speed)
    private static func mapChroma(_ cb: UnsafeMutablePointer<UInt8>, _ cr: UnsafeMutablePointer<UInt8>, strides: (Int, Int),
                                  width: Int, height: Int, through table: [UInt16]) {
        table.withUnsafeBufferPointer { table in
            let lookup = table.baseAddress!
            for row in 0..<height {
                let blue = cb + row * strides.0, red = cr + row * strides.1
                for column in 0..<width {
                    let mapped = lookup[Int(blue[column]) << 8 | Int(red[column])]
                    blue[column] = UInt8(truncatingIfNeeded: mapped >> 8)
                    red[column] = UInt8(truncatingIfNeeded: mapped)
                }
            }
        }
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
