import GStreamer

/// A background picture decoded as AYUV at the size of the session's picture, laid under each
/// keyed frame in place: where `alpha` made a frame transparent the backdrop shows, where it left
/// it opaque the subject stays, and the soft edge between mixes the two.
final class Backdrop: Sendable {
    /// AYUV, four bytes a pixel, rows without padding.
    let pixels: [UInt8]
    let width: Int
    let height: Int

    init(pixels: [UInt8], width: Int, height: Int) {
        (self.pixels, self.width, self.height) = (pixels, width, height)
    }

    /// Lays the backdrop under an AYUV frame of its size laid out as `info` says; a frame of
    /// another format or size, or smaller than its layout, is left as it is.
    func lay(under frame: UnsafeMutableRawBufferPointer, info: VideoInfo) {
        guard info.format == "AYUV", info.width == width, info.height == height, let plane = info.planes.first,
              let base = frame.baseAddress, plane.stride >= width * 4, plane.offset >= 0,
              plane.offset + plane.stride * (height - 1) + width * 4 <= frame.count else { return }
        pixels.withUnsafeBufferPointer { backdrop in
            Self.blend(base.assumingMemoryBound(to: UInt8.self) + plane.offset, stride: plane.stride,
                       backdrop: backdrop.baseAddress!, width: width, height: height)
        }
    }

    @_optimize(speed)  // the hot loop: fast in debug builds (the tests) as in release
    private static func blend(_ frame: UnsafeMutablePointer<UInt8>, stride: Int, backdrop: UnsafePointer<UInt8>, width: Int, height: Int) {
        for row in 0..<height {
            let line = frame + row * stride, under = backdrop + row * width * 4
            for column in 0..<width {
                let pixel = line + column * 4, behind = under + column * 4
                let alpha = Int(pixel[0])
                if alpha == 255 { continue }
                if alpha == 0 {
                    pixel[1] = behind[1]
                    pixel[2] = behind[2]
                    pixel[3] = behind[3]
                } else {
                    let rest = 255 - alpha
                    pixel[1] = UInt8(truncatingIfNeeded: (Int(pixel[1]) * alpha + Int(behind[1]) * rest + 127) / 255)
                    pixel[2] = UInt8(truncatingIfNeeded: (Int(pixel[2]) * alpha + Int(behind[2]) * rest + 127) / 255)
                    pixel[3] = UInt8(truncatingIfNeeded: (Int(pixel[3]) * alpha + Int(behind[3]) * rest + 127) / 255)
                }
                pixel[0] = 255
            }
        }
    }
}
