import GStreamer
import Templates

/// The colour of a green (or blue) screen as the camera sees it lit, found at the edges of a
/// frame where the screen shows around the subject: the top band and both sides, the bottom left
/// out (a subject standing reaches it).
///
/// The edges' coloured pixels are grouped by hue; the largest group is the screen, and its
/// median red, green and blue the key. Edges mostly grey, dark or of many colours are refused:
/// there is no screen to key.
public enum ScreenColor {
    /// The share of the edges' samples that must be of the screen's hue.
    static let screenShare = 0.5

    /// The screen's colour in an I420 frame.
    ///
    /// - Throws: ``CaptureError/Code/invalidSetting`` when the edges show no screen of one colour,
    ///   saying how to light it.
    public static func sampled(from frame: Sample) throws(CaptureError) -> RGBColor {
        guard let info = frame.videoInfo, info.format == "I420", info.planes.count == 3, info.width >= 16, info.height >= 16 else {
            throw CaptureError(.invalidSetting, "the camera's frames cannot be sampled for the screen's colour")
        }
        let edges: [Pixel]
        do {
            edges = try frame.withUnsafeBytes { bytes in Self.edgePixels(of: info, in: bytes) }
        } catch {
            throw CaptureError(.invalidSetting, "the camera's frame could not be read for the screen's colour")
        }
        return try screen(among: edges)
    }

    /// A pixel's colour, each channel 0 to 255.
    struct Pixel: Equatable {
        var red: Int, green: Int, blue: Int
    }

    /// The pixels of the top eighth and the outer eighths of the sides, a few hundred of each
    /// band, converted from BT.601 video levels.
    static func edgePixels(of info: VideoInfo, in bytes: UnsafeRawBufferPointer) -> [Pixel] {
        let (width, height) = (info.width, info.height)
        let step = max(1, min(width, height) / 96)
        let (luma, blue, red) = (info.planes[0], info.planes[1], info.planes[2])
        var pixels: [Pixel] = []
        for row in stride(from: 0, to: height, by: step) {
            for column in stride(from: 0, to: width, by: step) where row < height / 8 || column < width / 8 || column >= width - width / 8 {
                let lumaIndex = luma.offset + row * luma.stride + column
                let blueIndex = blue.offset + row / 2 * blue.stride + column / 2
                let redIndex = red.offset + row / 2 * red.stride + column / 2
                guard lumaIndex < bytes.count, blueIndex < bytes.count, redIndex < bytes.count else { continue }
                pixels.append(rgb(y: Int(bytes[lumaIndex]), u: Int(bytes[blueIndex]), v: Int(bytes[redIndex])))
            }
        }
        return pixels
    }

    /// A BT.601 video-levels YUV sample as RGB.
    static func rgb(y: Int, u: Int, v: Int) -> Pixel {
        let c = Double(y - 16) * 1.164, d = Double(u - 128), e = Double(v - 128)
        func clamped(_ value: Double) -> Int { Int(min(255, max(0, value.rounded()))) }
        return Pixel(red: clamped(c + 1.596 * e), green: clamped(c - 0.392 * d - 0.813 * e), blue: clamped(c + 2.017 * d))
    }

    /// The screen's colour among the edges' pixels: the median of the largest group of one hue,
    /// when it makes at least ``screenShare`` of them.
    static func screen(among pixels: [Pixel]) throws(CaptureError) -> RGBColor {
        let coloured = pixels.compactMap { pixel -> (Pixel, hue: Double)? in
            let high = max(pixel.red, pixel.green, pixel.blue), low = min(pixel.red, pixel.green, pixel.blue)
            // Grey, dark and washed-out pixels are not a screen's.
            guard high >= 32, Double(high - low) >= 0.2 * Double(high) else { return nil }
            return (pixel, hue(of: pixel, high: high, low: low))
        }
        var bins = [Int](repeating: 0, count: 36)
        for (_, hue) in coloured { bins[Int(hue / 10) % 36] += 1 }
        // The 30 degrees around the fullest bin.
        let fullest = bins.indices.max { bins[$0] + bins[($0 + 1) % 36] + bins[($0 + 35) % 36] < bins[$1] + bins[($1 + 1) % 36] + bins[($1 + 35) % 36] } ?? 0
        let centre = Double(fullest) * 10 + 5
        let screen = coloured.filter { abs(($0.hue - centre).remainder(dividingBy: 360)) <= 15 }.map(\.0)
        guard !pixels.isEmpty, Double(screen.count) >= screenShare * Double(pixels.count) else {
            let share = pixels.isEmpty ? 0 : screen.count * 100 / pixels.count
            throw CaptureError(.invalidSetting, "the picture's edges show no screen of one colour (\(share)% of them are); "
                               + "light the screen evenly behind the whole picture, step out of it, and sample again")
        }
        func median(_ channel: (Pixel) -> Int) -> UInt8 {
            let sorted = screen.map(channel).sorted()
            return UInt8(sorted[sorted.count / 2])
        }
        return RGBColor(red: median(\.red), green: median(\.green), blue: median(\.blue))
    }

    /// A pixel's hue, 0 to 360 degrees.
    private static func hue(of pixel: Pixel, high: Int, low: Int) -> Double {
        let spread = Double(high - low)
        let (red, green, blue) = (Double(pixel.red), Double(pixel.green), Double(pixel.blue))
        let hue: Double = if high == pixel.red {
            60 * (green - blue) / spread
        } else if high == pixel.green {
            60 * ((blue - red) / spread + 2)
        } else {
            60 * ((red - green) / spread + 4)
        }
        return hue < 0 ? hue + 360 : hue
    }
}
