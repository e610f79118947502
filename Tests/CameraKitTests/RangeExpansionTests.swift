@testable import CameraKit
import Testing
import TestSupport

@Suite("Video range stretched to JPEG's full range", .hangGuard(minutes: 3))
struct RangeExpansionTests {
    /// Luma `(y − 16) × 255/219` and chroma `128 + (c − 128) × 255/224`, rounded half away from
    /// zero and clamped: the stretch's definition, in real numbers.
    static func expected(_ sample: Int, isLuma: Bool) -> UInt8 {
        let real = isLuma ? Double(sample - 16) * 255 / 219 : 128 + Double(sample - 128) * 255 / 224
        return UInt8(min(255, max(0, real.rounded())))
    }

    @Test("Every sample value, in rows of every length and offset, comes out as the real-valued stretch rounds it", arguments: [true, false])
    func everyValue(isLuma: Bool) {
        // Rows of 256 to 256 + 17 samples, each starting at another value: every value goes through
        // the sixteen-at-a-time path and through the tail, at every position.
        for extra in 0...17 {
            let width = 256 + extra, height = 3
            let stride = width + 5
            let source = (0..<(stride * height)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ extra) }
            var target = [UInt8](repeating: 0xA5, count: stride * height)
            source.withUnsafeBufferPointer { input in
                target.withUnsafeMutableBufferPointer { output in
                    RangeExpansion.stretch(from: input.baseAddress!, stride: stride, to: output.baseAddress!, stride: stride,
                                           width: width, height: height, isLuma: isLuma)
                }
            }
            for row in 0..<height {
                for column in 0..<stride {
                    let index = row * stride + column
                    let want = column < width ? Self.expected(Int(source[index]), isLuma: isLuma) : 0xA5  // padding untouched
                    #expect(target[index] == want, "row \(row), column \(column), sample \(source[index])")
                }
            }
        }
    }
}
