import GStreamer

/// Stretches a limited-range (video) I420 frame to the full range JPEG stores: luma 16–235 and
/// chroma 16–240 to 0–255, through a table, into a new frame in the caps' own layout.
///
/// GStreamer 1.22's videoconvert keeps the range when only the range differs and jpegenc writes
/// samples as they come, so without this a JPEG's black is grey (16) and its white dim (235).
enum RangeExpansion {
    /// The frame in full range, or `nil` when it is not limited-range I420 (then it needs none).
    static func fullRange(_ frame: Sample) throws -> Sample? {
        guard let source = frame.videoInfo, source.format == "I420", !source.isFullRange, source.planes.count == 3,
              let caps = frame.caps else { return nil }
        let target = try VideoInfo(caps: caps)  // the default layout, which downstream assumes without video meta
        let output = try Buffer(count: target.frameSize) { destination in
            try frame.withUnsafeBytes { input in
                let chromaWidth = (source.width + 1) / 2, chromaHeight = (source.height + 1) / 2
                for plane in 0..<3 {
                    let (width, height) = plane == 0 ? (source.width, source.height) : (chromaWidth, chromaHeight)
                    stretch(from: input.baseAddress!.assumingMemoryBound(to: UInt8.self) + source.planes[plane].offset,
                            stride: source.planes[plane].stride,
                            to: destination.baseAddress!.assumingMemoryBound(to: UInt8.self) + target.planes[plane].offset,
                            stride: target.planes[plane].stride, width: width, height: height, isLuma: plane == 0)
                }
            }
        }
        return Sample(buffer: output, caps: caps)
    }

    /// One plane through a table: luma `(y − 16) × 255/219`, chroma `128 + (c − 128) × 255/224`,
    /// rounded and clamped to 0–255.
    @_optimize(speed)  // the hot loop: fast in debug builds (the tests) as in release
    static func stretch(from source: UnsafePointer<UInt8>, stride sourceStride: Int, to target: UnsafeMutablePointer<UInt8>,
                        stride targetStride: Int, width: Int, height: Int, isLuma: Bool) {
        (isLuma ? lumaTable : chromaTable).withUnsafeBufferPointer { table in
            let lookup = table.baseAddress!
            for row in 0..<height {
                let input = source + row * sourceStride, output = target + row * targetStride
                for column in 0..<width {
                    output[column] = lookup[Int(input[column])]
                }
            }
        }
    }

    private static let lumaTable: [UInt8] = (0...255).map { value in
        UInt8(min(255, max(0, ((value - 16) * 255 + 109) / 219)))
    }

    private static let chromaTable: [UInt8] = (0...255).map { value in
        let stretched = 128.0 + Double(value - 128) * 255 / 224
        return UInt8(min(255, max(0, stretched.rounded())))
    }
}
