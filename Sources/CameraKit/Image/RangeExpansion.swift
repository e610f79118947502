import GStreamer

/// Stretches a limited-range (video) I420 frame to the full range JPEG stores: luma 16–235 and
/// chroma 16–240 to 0–255, in fixed point, into a new frame in the caps' own layout.
///
/// GStreamer 1.22's videoconvert keeps the range when only the range differs and jpegenc writes
/// samples as they come, so without this a JPEG's black is grey (16) and its white dim (235).
enum RangeExpansion {
    /// The frame in full range, or `nil` when it is not limited-range I420 (then it needs none)
    /// or its buffer is smaller than its layout says (then it is left as it is).
    static func fullRange(_ frame: Sample) -> Sample? {
        guard let source = frame.videoInfo, source.format == "I420", !source.isFullRange, source.planes.count == 3,
              let caps = frame.caps, let input = frame.buffer,
              let target = try? VideoInfo(caps: caps)  // the default layout, which downstream assumes without video meta
        else { return nil }
        let sizes = [(source.width, source.height), ((source.width + 1) / 2, (source.height + 1) / 2), ((source.width + 1) / 2, (source.height + 1) / 2)]
        func fits(_ layout: VideoInfo, in count: Int) -> Bool {
            zip(layout.planes, sizes).allSatisfy { plane, size in
                plane.stride >= size.0 && plane.offset >= 0 && plane.offset + plane.stride * (size.1 - 1) + size.0 <= count
            }
        }
        guard fits(source, in: input.count), fits(target, in: target.frameSize) else { return nil }
        let output = try? Buffer(count: target.frameSize) { destination in
            try input.withUnsafeBytes { bytes in
                for (plane, size) in sizes.enumerated() {
                    stretch(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self) + source.planes[plane].offset,
                            stride: source.planes[plane].stride,
                            to: destination.baseAddress!.assumingMemoryBound(to: UInt8.self) + target.planes[plane].offset,
                            stride: target.planes[plane].stride, width: size.0, height: size.1, isLuma: plane == 0)
                }
            }
        }
        return output.map { Sample(buffer: $0, caps: caps) }
    }

    /// One plane, stretched: luma `(y − 16) × 255/219`, chroma `128 + (c − 128) × 255/224`,
    /// rounded and clamped to 0–255, in fixed point (the constants give exactly the rounded real
    /// values for every sample value). Written as a plain loop of
    /// arithmetic, which the compiler turns into vector instructions: twice as fast as a table,
    /// and than Swift's SIMD types, whose widening it does one lane at a time.
    @_optimize(speed)  // the hot loop: fast in debug builds (the tests) as in release
    static func stretch(from source: UnsafePointer<UInt8>, stride sourceStride: Int, to target: UnsafeMutablePointer<UInt8>,
                        stride targetStride: Int, width: Int, height: Int, isLuma: Bool) {
        let line = isLuma ? Self.luma : Self.chroma
        let (centre, scale, rounding, base) = (line.centre, line.scale, line.rounding, line.base)
        for row in 0..<height {
            let input = source + row * sourceStride, output = target + row * targetStride
            for column in 0..<width {
                let value = (((Int32(input[column]) &- centre) &* scale &+ rounding) >> 16) &+ base
                output[column] = UInt8(truncatingIfNeeded: min(max(value, 0), 255))
            }
        }
    }

    /// A stretch in 16-bit fixed point: `base + ((sample − centre) × scale + rounding) >> 16`.
    private struct Line {
        let centre: Int32, scale: Int32, rounding: Int32, base: Int32
    }

    /// 255/219 from 16; its rounding term makes each result the exactly rounded one.
    private static let luma = Line(centre: 16, scale: 76306, rounding: 33100, base: 0)
    /// 255/224 about 128.
    private static let chroma = Line(centre: 128, scale: 74601, rounding: 32768, base: 128)
}
