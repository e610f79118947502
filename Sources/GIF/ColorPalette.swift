/// Up to 256 colours chosen for a set of RGB pictures by median cut, and the mapping of their
/// pixels to those colours with a light ordered dither (smooth skies stay smooth, and the
/// pattern, fixed from frame to frame, does not crawl in an animation).
public struct ColorPalette: Sendable {
    /// The colours, as RGB triples, 256 at most.
    public let colors: [UInt8]
    /// The number of colours.
    public var count: Int { colors.count / 3 }

    /// Chooses the colours for `pictures` (RGB, 3 bytes a pixel).
    public init(for pictures: [[UInt8]]) {
        var histogram = [Int](repeating: 0, count: Self.binCount)
        for picture in pictures {
            picture.withUnsafeBufferPointer { pixels in
                var index = 0
                while index + 2 < pixels.count {
                    histogram[Self.bin(pixels[index], pixels[index + 1], pixels[index + 2])] += 1
                    index += 3
                }
            }
        }
        var boxes = [Box(bins: histogram.indices.filter { histogram[$0] > 0 }, histogram: histogram)]
        while boxes.count < 256, let widest = boxes.indices.filter({ boxes[$0].bins.count > 1 }).max(by: { boxes[$0].score < boxes[$1].score }) {
            let (low, high) = boxes[widest].split(histogram: histogram)
            boxes[widest] = low
            boxes.append(high)
        }
        colors = boxes.isEmpty ? [0, 0, 0] : boxes.flatMap { $0.meanColor(histogram: histogram) }
    }

    /// Maps a picture's pixels to palette indexes, one byte a pixel.
    public func indexes(of picture: [UInt8], width: Int, height: Int) -> [UInt8] {
        var nearest = [Int16](repeating: -1, count: Self.binCount)
        var result = [UInt8](repeating: 0, count: width * height)
        picture.withUnsafeBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let at = (y * width + x) * 3
                    guard at + 2 < pixels.count else { return }
                    // A 4x4 Bayer threshold of ±6 levels a channel.
                    let offset = (Self.bayer[(y & 3) * 4 + (x & 3)] * 12 + 6) / 16 - 6
                    let bin = Self.bin(Self.clamped(Int(pixels[at]) + offset), Self.clamped(Int(pixels[at + 1]) + offset),
                                       Self.clamped(Int(pixels[at + 2]) + offset))
                    if nearest[bin] < 0 { nearest[bin] = Int16(closest(toBin: bin)) }
                    result[y * width + x] = UInt8(nearest[bin])
                }
            }
        }
        return result
    }

    /// The palette index closest to a bin's centre.
    private func closest(toBin bin: Int) -> Int {
        let (red, green, blue) = Self.center(of: bin)
        var best = 0, bestDistance = Int.max
        for index in 0..<count {
            let dr = Int(colors[index * 3]) - red, dg = Int(colors[index * 3 + 1]) - green, db = Int(colors[index * 3 + 2]) - blue
            let distance = 3 * dr * dr + 4 * dg * dg + 2 * db * db  // green counts most to the eye, blue least
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        return best
    }

    private static let bayer = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// Pixels are counted in bins of 5 bits a channel.
    static let binCount = 32 * 32 * 32

    static func bin(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> Int {
        Int(red >> 3) << 10 | Int(green >> 3) << 5 | Int(blue >> 3)
    }

    static func center(of bin: Int) -> (Int, Int, Int) {
        ((bin >> 10) * 8 + 4, (bin >> 5 & 31) * 8 + 4, (bin & 31) * 8 + 4)
    }

    private static func clamped(_ value: Int) -> UInt8 { UInt8(min(255, max(0, value))) }

    /// A box of bins: median cut splits the one whose pixels spread the most along its widest channel.
    private struct Box {
        var bins: [Int]
        /// Pixels times the widest channel's range: the box most worth splitting scores highest.
        var score = 0
        var widestChannel = 0

        init(bins: [Int], histogram: [Int]) {
            self.bins = bins
            var (lowRed, lowGreen, lowBlue, highRed, highGreen, highBlue, pixels) = (31, 31, 31, 0, 0, 0, 0)
            for bin in bins {
                let (red, green, blue) = (bin >> 10, bin >> 5 & 31, bin & 31)
                (lowRed, highRed) = (min(lowRed, red), max(highRed, red))
                (lowGreen, highGreen) = (min(lowGreen, green), max(highGreen, green))
                (lowBlue, highBlue) = (min(lowBlue, blue), max(highBlue, blue))
                pixels += histogram[bin]
            }
            let ranges = [highRed - lowRed, highGreen - lowGreen, highBlue - lowBlue]
            widestChannel = ranges.indices.max { ranges[$0] < ranges[$1] } ?? 0
            score = ranges[widestChannel] == 0 ? 0 : pixels * ranges[widestChannel]
        }

        /// The two halves at the pixels' median along the widest channel.
        func split(histogram: [Int]) -> (Box, Box) {
            let shift = [10, 5, 0][widestChannel]
            let sorted = bins.sorted { ($0 >> shift & 31, $0) < ($1 >> shift & 31, $1) }
            let total = sorted.reduce(0) { $0 + histogram[$1] }
            var seen = 0, cut = 1
            for (index, bin) in sorted.enumerated() {
                seen += histogram[bin]
                if seen * 2 >= total { cut = max(1, min(sorted.count - 1, index + 1)); break }
            }
            return (Box(bins: Array(sorted[..<cut]), histogram: histogram), Box(bins: Array(sorted[cut...]), histogram: histogram))
        }

        /// The pixels' mean colour.
        func meanColor(histogram: [Int]) -> [UInt8] {
            var sums = [0, 0, 0], pixels = 0
            for bin in bins {
                let (red, green, blue) = ColorPalette.center(of: bin)
                let weight = histogram[bin]
                sums[0] += red * weight
                sums[1] += green * weight
                sums[2] += blue * weight
                pixels += weight
            }
            return sums.map { UInt8(min(255, $0 / max(1, pixels))) }
        }
    }
}
